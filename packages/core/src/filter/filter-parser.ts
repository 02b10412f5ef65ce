import { EmbeddedActionsParser, type IToken, type ParserMethod } from 'chevrotain';
import type { AttrPath, CompareOperator, CompValue, Filter, PatchPath } from './ast.js';
import { splitAttrPath } from './attr-path-syntax.js';
import { filterErrorMessages } from './filter-error-messages.js';
import { lexFilter, type Lexed } from './lex-filter.js';
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

/** What a rule returns while chevrotain records the grammar, when no token has a text yet. */
const RECORDED_PATH: AttrPath = Object.freeze({ attr: '' });
const RECORDED: Filter = Object.freeze({ kind: 'present', path: RECORDED_PATH });

/**
 * The grammar of RFC 7644 §3.4.2.2 (Figure 1) and §3.5.2 (Figure 5), building the AST directly
 * (embedded actions, no CST). Precedence: `not` over `and` over `or` (RFC 7644 §3.4.2.2), both
 * left-associative; parentheses group. Every decision is LL(1).
 *
 * Written for speed as chevrotain's performance guide asks, on inputs of a few tokens where the
 * engine's cost per rule call counts (docs/performance.md, filter parsing): every alternative list
 * and repetition body is a field built once with the parser, so parsing allocates the AST and the
 * tokens, not closures; a rule is a chevrotain RULE only where recursion or reuse needs one (`filter`
 * is the `or` level itself; an attribute expression is part of `unary`); an operand being folded
 * (`folded`) or the attribute path its tail applies to (`path`) lives in a field, saved around
 * nested rules where they could change it.
 */
class FilterParser extends EmbeddedActionsParser {
  /** Value filters do not nest (`valFilter` has no valuePath, RFC 7644 §3.4.2.2). */
  private valuePathDepth = 0;
  private semantic: SyntaxProblem | undefined;
  /** The left operand of the `or` / `and` being folded by the innermost running rule. */
  private folded: Filter = RECORDED;
  /** The attribute path of the attribute expression being read. */
  private path: AttrPath = RECORDED_PATH;

  constructor() {
    // No recovery: the first error is the answer.
    super([...filterTokens], { maxLookahead: 1, errorMessageProvider: filterErrorMessages, recoveryEnabled: false });
    this.performSelfAnalysis();
  }

  /** True while chevrotain records the grammar (performSelfAnalysis): tokens are placeholders then. */
  private get recording(): boolean {
    return (this as unknown as { RECORDING_PHASE: boolean }).RECORDING_PHASE;
  }

  /** `FILTER`, the start rule of a filter, and the `or` level of the precedence. */
  public readonly filter = this.RULE('filter', (): Filter => {
    const outer = this.folded;
    this.folded = this.SUBRULE(this.andExpr);
    this.MANY(this.orStep);
    const result = this.folded;
    this.folded = outer;
    return result;
  });

  private readonly orStep = (): void => {
    this.CONSUME(Or);
    const right = this.SUBRULE1(this.andExpr);
    this.folded = { kind: 'or', left: this.folded, right };
  };

  /** `PATH = attrPath / valuePath [subAttr]` (RFC 7644 §3.5.2, Figure 5). */
  public readonly patchPath = this.RULE('patchPath', (): PatchPath => {
    const word = this.CONSUME(AttrPathToken);
    const valuePath = this.OPTION(this.valuePathTail);
    if (this.recording) return RECORDED as unknown as PatchPath;
    const attrPath = splitAttrPath(word.image);
    if (valuePath === undefined) return { attrPath };
    const { filter: valueFilter, sub } = valuePath;
    return sub === undefined ? { attrPath, valueFilter } : { attrPath, valueFilter, subAttr: sub.image.slice(1) };
  });

  /** `"[" valFilter "]" [subAttr]` after a PATCH path's attribute. */
  private readonly valuePathTail = (): { readonly filter: Filter; readonly sub: IToken | undefined } => ({
    filter: this.SUBRULE(this.bracketed),
    sub: this.OPTION1(this.subAttrToken),
  });

  private readonly subAttrToken = (): IToken => this.CONSUME(SubAttr);

  private readonly andExpr = this.RULE('andExpr', (): Filter => {
    const outer = this.folded;
    this.folded = this.SUBRULE(this.unary);
    this.MANY(this.andStep);
    const result = this.folded;
    this.folded = outer;
    return result;
  });

  private readonly andStep = (): void => {
    this.CONSUME(And);
    const right = this.SUBRULE1(this.unary);
    this.folded = { kind: 'and', left: this.folded, right };
  };

  private readonly unary = this.RULE('unary', (): Filter => this.OR(this.unaryAlternatives));

  private readonly unaryAlternatives = [
    {
      // `"not" "(" FILTER ")"`
      ALT: (): Filter => {
        this.CONSUME(Not);
        return { kind: 'not', filter: this.SUBRULE(this.parenthesised) };
      },
    },
    { ALT: (): Filter => this.SUBRULE1(this.parenthesised) },
    {
      // `attrExp`, `valuePath`, and `valuePath subAttr (compareOp compValue / "pr")` as Entra sends it.
      ALT: (): Filter => {
        const word = this.CONSUME(AttrPathToken);
        if (!this.recording) this.path = splitAttrPath(word.image);
        return this.OR1(this.attrTails);
      },
    },
  ];

  private readonly parenthesised = this.RULE('parenthesised', (): Filter => {
    this.CONSUME(LParen);
    const filter = this.SUBRULE(this.filter);
    this.CONSUME(RParen);
    return filter;
  });

  /** What follows the attribute path (`path`): `pr`, a comparison, or a value filter (and its sub-attribute test). */
  private readonly attrTails = [
    { ALT: (): Filter => (this.CONSUME(Pr), { kind: 'present', path: this.path }) },
    {
      ALT: (): Filter => {
        const path = this.path;
        const op = toOperator(this.CONSUME(CompareOp));
        return { kind: 'compare', path, op, value: this.OR3(this.compValues) };
      },
    },
    {
      ALT: (): Filter => {
        const path = this.path;
        const filter = this.SUBRULE(this.bracketed);
        const extra = this.OPTION(this.subAttrTest);
        // `emails[type eq "work"].value eq "x"` holds on one element: `emails[type eq "work" and value eq "x"]`.
        return { kind: 'valuePath', path, filter: extra === undefined ? filter : { kind: 'and', left: filter, right: extra } };
      },
    },
  ];

  /** `attrPath "[" valFilter "]"`, the brackets and what is inside. */
  private readonly bracketed = this.RULE('bracketed', (): Filter => {
    const open = this.CONSUME(LBracket);
    if (this.valuePathDepth > 0 && !this.recording) this.problem(open, 'a value filter cannot contain another value filter');
    this.valuePathDepth++;
    const filter = this.SUBRULE(this.filter);
    this.CONSUME(RBracket);
    this.valuePathDepth--;
    return filter;
  });

  /** After `valuePath`: `"." ATTRNAME` and `pr` or a comparison, on the same element. */
  private readonly subAttrTest = (): Filter => {
    const sub = this.CONSUME(SubAttr);
    if (!this.recording) this.path = { attr: sub.image.slice(1) };
    return this.OR2(this.subAttrTails);
  };

  private readonly subAttrTails = [
    { ALT: (): Filter => (this.CONSUME1(Pr), { kind: 'present', path: this.path }) },
    {
      ALT: (): Filter => {
        const path = this.path;
        const op = toOperator(this.CONSUME1(CompareOp));
        return { kind: 'compare', path, op, value: this.OR4(this.subAttrCompValues) };
      },
    },
  ];

  /** `compValue = false / null / true / number / string`, JSON per RFC 7159, after an operator (`at` tells which). */
  private compValueAlternatives(at: 0 | 1): { ALT: () => CompValue }[] {
    return [
      {
        ALT: (): CompValue => {
          const { image } = this.consume(at, StringValue);
          if (this.recording) return '';
          // The lexer checked the JSON string: without a backslash, its value is the text between the quotes.
          return image.includes('\\') ? (JSON.parse(image) as string) : image.slice(1, -1);
        },
      },
      {
        ALT: (): CompValue => {
          const token = this.consume(at, NumberValue);
          const value = Number(token.image);
          if (!Number.isFinite(value) && !this.recording) this.problem(token, `the number ${token.image} is out of range`);
          return value;
        },
      },
      { ALT: (): CompValue => (this.consume(at, True), true) },
      { ALT: (): CompValue => (this.consume(at, False), false) },
      { ALT: (): CompValue => (this.consume(at, Null), null) },
    ];
  }

  private readonly compValues = this.compValueAlternatives(0);
  private readonly subAttrCompValues = this.compValueAlternatives(1);

  private problem(token: IToken, message: string): void {
    this.semantic ??= { offset: token.startOffset, message };
  }

  /**
   * Runs one start rule over the tokens; the first problem by offset, the lexer's included, wins.
   * Every field a run uses is reset before it and released after it: nothing of one parse is seen by
   * the next, so the one instance is shared as an immutable grammar.
   */
  run<T>(lexed: Lexed, textLength: number, rule: ParserMethod<[], T>): SyntaxOutcome<T> {
    this.valuePathDepth = 0;
    this.semantic = undefined;
    this.input = lexed.tokens;
    let value: T;
    try {
      value = rule.call(this);
    } catch (error) {
      // Last line of defence: the depth pre-check keeps recursion far from the stack's end.
      this.release();
      if (error instanceof RangeError) return { ok: false, problem: { offset: 0, message: 'the expression is nested too deeply' } };
      throw error;
    }
    const syntax = this.errors[0];
    this.release();
    let first = lexed.problem;
    if (syntax !== undefined) {
      const offset = Number.isNaN(syntax.token.startOffset) ? textLength : syntax.token.startOffset;
      if (first === undefined || offset < first.offset) first = { offset, message: syntax.message };
    }
    // Set by the rule just run (TypeScript cannot see that).
    const semantic = this.semantic as SyntaxProblem | undefined;
    if (semantic !== undefined && (first === undefined || semantic.offset < first.offset)) first = semantic;
    return first === undefined ? { ok: true, value } : { ok: false, problem: first };
  }

  private release(): void {
    this.input = EMPTY;
    this.folded = RECORDED;
    this.path = RECORDED_PATH;
  }
}

const EMPTY: IToken[] = [];

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
  const p = sharedParser();
  return p.run(lexFilter(text), text.length, p.filter);
}

/** Lexes and parses a PATCH path; no limits are checked here. */
export function syntaxPatchPath(text: string): SyntaxOutcome<PatchPath> {
  const p = sharedParser();
  return p.run(lexFilter(text), text.length, p.patchPath);
}
