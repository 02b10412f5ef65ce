import { EmbeddedActionsParser, type IToken } from 'chevrotain';
import type { AttrPath, CompareFilter, CompareOperator, CompValue, Filter, PatchPath, PresentFilter } from './ast.js';
import { splitAttrPath } from './attr-path-syntax.js';
import { filterErrorMessages } from './filter-error-messages.js';
import { lexFilter } from './lex-filter.js';
import type { SyntaxOutcome, SyntaxProblem } from './syntax-outcome.js';
import {
  And,
  AttrPathToken,
  CompareOp,
  False,
  filterTokens,
  LBracket,
  LParen,
  Not,
  Null,
  NumberValue,
  Or,
  Pr,
  RBracket,
  RParen,
  StringValue,
  SubAttr,
  True,
} from './filter-tokens.js';

/**
 * The grammar of RFC 7644 §3.4.2.2 (Figure 1) and §3.5.2 (Figure 5), building the AST directly
 * (embedded actions, no CST). Precedence: `not` over `and` over `or` (RFC 7644 §3.4.2.2), both
 * left-associative; parentheses group.
 */
class FilterParser extends EmbeddedActionsParser {
  /** Value filters do not nest (`valFilter` has no valuePath, RFC 7644 §3.4.2.2). */
  private valuePathDepth = 0;
  private semantic: SyntaxProblem | undefined;

  constructor() {
    super(filterTokens, { maxLookahead: 2, errorMessageProvider: filterErrorMessages, recoveryEnabled: false });
    this.performSelfAnalysis();
  }

  /** `FILTER`, the start rule of a filter. */
  public readonly filter = this.RULE('filter', (): Filter => this.SUBRULE(this.orExpr));

  /** `PATH = attrPath / valuePath [subAttr]` (RFC 7644 §3.5.2, Figure 5). */
  public readonly patchPath = this.RULE('patchPath', (): PatchPath => {
    const word = this.CONSUME(AttrPathToken);
    let valueFilter: Filter | undefined;
    let sub: IToken | undefined;
    this.OPTION(() => {
      valueFilter = this.SUBRULE(this.bracketed);
      this.OPTION1(() => {
        sub = this.CONSUME(SubAttr);
      });
    });
    return this.ACTION(() => ({
      attrPath: this.toAttrPath(word),
      ...(valueFilter !== undefined ? { valueFilter } : {}),
      ...(sub !== undefined ? { subAttr: sub.image.slice(1) } : {}),
    }));
  });

  private readonly orExpr = this.RULE('orExpr', (): Filter => {
    let left = this.SUBRULE(this.andExpr);
    this.MANY(() => {
      this.CONSUME(Or);
      const right = this.SUBRULE1(this.andExpr);
      left = this.ACTION(() => ({ kind: 'or', left, right }));
    });
    return left;
  });

  private readonly andExpr = this.RULE('andExpr', (): Filter => {
    let left = this.SUBRULE(this.unary);
    this.MANY(() => {
      this.CONSUME(And);
      const right = this.SUBRULE1(this.unary);
      left = this.ACTION(() => ({ kind: 'and', left, right }));
    });
    return left;
  });

  private readonly unary = this.RULE('unary', (): Filter =>
    this.OR([
      {
        // `"not" "(" FILTER ")"`
        ALT: () => {
          this.CONSUME(Not);
          const filter = this.SUBRULE(this.parenthesised);
          return this.ACTION((): Filter => ({ kind: 'not', filter }));
        },
      },
      { ALT: () => this.SUBRULE1(this.parenthesised) },
      { ALT: () => this.SUBRULE(this.attrExpr) },
    ]),
  );

  private readonly parenthesised = this.RULE('parenthesised', (): Filter => {
    this.CONSUME(LParen);
    const filter = this.SUBRULE(this.orExpr);
    this.CONSUME(RParen);
    return filter;
  });

  /** `attrPath "[" valFilter "]"`, the brackets and what is inside. */
  private readonly bracketed = this.RULE('bracketed', (): Filter => {
    const open = this.CONSUME(LBracket);
    this.ACTION(() => {
      if (this.valuePathDepth > 0) this.problem(open, 'a value filter cannot contain another value filter');
      this.valuePathDepth++;
    });
    const filter = this.SUBRULE(this.orExpr);
    this.CONSUME(RBracket);
    this.ACTION(() => {
      this.valuePathDepth--;
    });
    return filter;
  });

  /** `attrExp`, `valuePath`, and `valuePath subAttr (compareOp compValue / "pr")` as Entra sends it. */
  private readonly attrExpr = this.RULE('attrExpr', (): Filter => {
    const word = this.CONSUME(AttrPathToken);
    return this.OR([
      {
        ALT: () => {
          this.CONSUME(Pr);
          return this.ACTION((): PresentFilter => ({ kind: 'present', path: this.toAttrPath(word) }));
        },
      },
      {
        ALT: () => {
          const op = this.CONSUME(CompareOp);
          const value = this.SUBRULE(this.compValue);
          return this.ACTION((): CompareFilter => ({ kind: 'compare', path: this.toAttrPath(word), op: toOperator(op), value }));
        },
      },
      {
        ALT: () => {
          const inner = this.SUBRULE(this.bracketed);
          let extra: Filter | undefined;
          this.OPTION(() => {
            const sub = this.CONSUME(SubAttr);
            extra = this.OR1([
              {
                ALT: () => {
                  this.CONSUME1(Pr);
                  return this.ACTION((): PresentFilter => ({ kind: 'present', path: { attr: sub.image.slice(1) } }));
                },
              },
              {
                ALT: () => {
                  const op = this.CONSUME1(CompareOp);
                  const value = this.SUBRULE1(this.compValue);
                  return this.ACTION(
                    (): CompareFilter => ({ kind: 'compare', path: { attr: sub.image.slice(1) }, op: toOperator(op), value }),
                  );
                },
              },
            ]);
          });
          return this.ACTION((): Filter => ({
            kind: 'valuePath',
            path: this.toAttrPath(word),
            // `emails[type eq "work"].value eq "x"` holds on one element: `emails[type eq "work" and value eq "x"]`.
            filter: extra === undefined ? inner : { kind: 'and', left: inner, right: extra },
          }));
        },
      },
    ]);
  });

  /** `compValue = false / null / true / number / string`, JSON per RFC 7159. */
  private readonly compValue = this.RULE('compValue', (): CompValue =>
    this.OR([
      {
        ALT: () => {
          const token = this.CONSUME(StringValue);
          return this.ACTION(() => JSON.parse(token.image) as string);
        },
      },
      {
        ALT: () => {
          const token = this.CONSUME(NumberValue);
          return this.ACTION(() => {
            const value = Number(token.image);
            if (!Number.isFinite(value)) this.problem(token, `the number ${token.image} is out of range`);
            return value;
          });
        },
      },
      { ALT: () => (this.CONSUME(True), true) },
      { ALT: () => (this.CONSUME(False), false) },
      { ALT: () => (this.CONSUME(Null), null) },
    ]),
  );

  private toAttrPath(token: IToken): AttrPath {
    return splitAttrPath(token.image);
  }

  private problem(token: IToken, message: string): void {
    this.semantic ??= { offset: token.startOffset, message };
  }

  /** Runs one start rule over the tokens; the first problem by offset, the lexer's included, wins. */
  run<T>(tokens: IToken[], textLength: number, lexProblem: SyntaxProblem | undefined, rule: () => T): SyntaxOutcome<T> {
    this.valuePathDepth = 0;
    this.semantic = undefined;
    this.input = tokens;
    let value: T;
    try {
      value = rule();
    } catch (error) {
      // Last line of defence: the depth pre-check keeps recursion far from the stack's end.
      this.input = [];
      if (error instanceof RangeError) return { ok: false, problem: { offset: 0, message: 'the expression is nested too deeply' } };
      throw error;
    }
    const syntax = this.errors[0];
    const problems: SyntaxProblem[] = lexProblem === undefined ? [] : [lexProblem];
    if (syntax !== undefined) {
      const offset = Number.isNaN(syntax.token.startOffset) ? textLength : syntax.token.startOffset;
      problems.push({ offset, message: syntax.message });
    }
    if (this.semantic !== undefined) problems.push(this.semantic);
    this.input = [];
    const first = problems.sort((a, b) => a.offset - b.offset)[0];
    return first === undefined ? { ok: true, value } : { ok: false, problem: first };
  }
}

function toOperator(token: IToken): CompareOperator {
  return token.image.toLowerCase() as CompareOperator;
}

let parser: FilterParser | undefined;

/** The one parser (chevrotain's performance guide: build once, reuse). Built on first use; it holds no per-server data. */
function sharedParser(): FilterParser {
  parser ??= new FilterParser();
  return parser;
}

/** Lexes and parses a filter; no limits are checked here. */
export function syntaxFilter(text: string): SyntaxOutcome<Filter> {
  const { tokens, problem } = lexFilter(text);
  const p = sharedParser();
  return p.run(tokens, text.length, problem, () => p.filter());
}

/** Lexes and parses a PATCH path; no limits are checked here. */
export function syntaxPatchPath(text: string): SyntaxOutcome<PatchPath> {
  const { tokens, problem } = lexFilter(text);
  const p = sharedParser();
  return p.run(tokens, text.length, problem, () => p.patchPath());
}
