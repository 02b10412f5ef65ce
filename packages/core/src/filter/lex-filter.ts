import { Lexer, type IToken } from 'chevrotain';
import { filterTokens } from './filter-tokens.js';
import type { SyntaxProblem } from './syntax-outcome.js';

let lexer: Lexer | undefined;

/**
 * Splits filter or path text into tokens with the one shared lexer (chevrotain's performance guide:
 * build once, reuse; offsets only). Characters the lexer cannot use are skipped, so the parser still
 * runs and the earliest problem can be reported; `problem` is the first of them, in SCIM words.
 */
export function lexFilter(text: string): { readonly tokens: IToken[]; readonly problem?: SyntaxProblem } {
  lexer ??= new Lexer(filterTokens, { positionTracking: 'onlyOffset', ensureOptimizations: true });
  const lexed = lexer.tokenize(text);
  const error = lexed.errors[0];
  return error === undefined ? { tokens: lexed.tokens } : { tokens: lexed.tokens, problem: lexProblem(text, error.offset) };
}

/** Lexer errors, restated: a string that does not close, a quote that is not JSON, a stray character. */
function lexProblem(text: string, offset: number): SyntaxProblem {
  const char = text.charAt(offset);
  if (char === '"') {
    const closed = /(?:^|[^\\])(?:\\\\)*"/.test(text.slice(offset + 1));
    return {
      offset,
      message: closed
        ? 'invalid string: values are JSON strings, where a backslash starts one of the escapes \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX and control characters must be escaped'
        : 'unterminated string: a value string must end with a double quote',
    };
  }
  if (char === "'") return { offset, message: 'values are JSON strings and must be in double quotes' };
  return { offset, message: `unexpected character ${JSON.stringify(char)}` };
}
