/** A syntax error found by the lexer or the parser: a 0-based offset into the text and what went wrong. */
export interface SyntaxProblem {
  readonly offset: number;
  readonly message: string;
}

/** Either the parsed value or the first problem, by position in the text. */
export type SyntaxOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: SyntaxProblem };
