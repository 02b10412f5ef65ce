import { EmbeddedActionsParser, type IToken } from 'chevrotain';
import type { CompareOperator, CompValue, Filter, PatchPath } from './ast.js';
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

/** What follows an attribute path in `attrExpr`: `pr`, a comparison, or a value filter (and its sub-attribute test). */
type AttrTail =
  | { readonly kind: 'present' }
  | { readonly kind: 'compare'; readonly op: CompareOperator; readonly value: CompValue }
  | { readonly kind: 'valuePath'; readonly filter: Filter; readonly extra: Filter | undefined };

const PRESENT: AttrTail = Object.freeze({ kind: 'present' });

/** What a rule returns while chevrotain records the grammar, when no token has a text yet. */
const RECORDED: Filter = Object.freeze({ kind: 'present', path: Object.freeze({ attr: '' }) });

/**
 * The grammar of RFC 7644 §3.4.2.2 (Figure 1) and §3.5.2 (Figure 5), building the AST directly
 * (embedded actions, no CST). Precedence: `not` over `and` over `or` (RFC 7644 §3.4.2.2), both
 * left-associative; parentheses group.
 *
 * Written for speed as chevrotain's performance guide asks: every alternative list and repetition
 * body is a field built once with the parser, so parsing allocates the AST and the tokens, not
 * closures; a left operand being folded lives in `folded` (saved and restored around each rule, as
 * rules nest through parentheses).
 */
class FilterParser extends EmbeddedActionsParser {
  /** Value filters do not nest (`valFilter` has no valuePath, RFC 7644 §3.4.2.2). */
  private valuePathDepth = 0;
  private semantic: SyntaxProblem | undefined;
  /** The left operand of the `or` / `and` being folded by the innermost running rule. */
  private folded: Filter = RECORDED;

  constructor() {
    super(filterTokens, { maxLookahead: 2, errorMessageProvider: filterErrorMessages, recoveryEnabled: false });
    this.performSelfAnalysis();
  }

  /** True while chevrotain records the grammar (performSelfAnalysis): tokens are placeholders then. */
  private get recording(): boolean {
    return (this as unknown as { RECORDING_PHASE: boolean }).RECORDING_PHASE;
  }

  /** `FILTER`, the start rule of a filter. */
  public readonly filter = this.RULE('filter', (): Filter => this.SUBRULE(this.orExpr));

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

  private readonly orExpr = this.RULE('orExpr', (): Filter => {
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

  private readonly unaryAlternatives = [
    {
      // `"not" "(" FILTER ")"`
      ALT: (): Filter => {
        this.CONSUME(Not);
        return { kind: 'not', filter: this.SUBRULE(this.parenthesised) };
      },
    },
    { ALT: (): Filter => this.SUBRULE1(this.parenthesised) },
    { ALT: (): Filter => this.SUBRULE(this.attrExpr) },
  ];

  private readonly unary = this.RULE('unary', (): Filter => this.OR(this.unaryAlternatives));

  private readonly parenthesised = this.RULE('parenthesised', (): Filter => {
    this.CONSUME(LParen);
    const filter = this.SUBRULE(this.orExpr);
    this.CONSUME(RParen);
    return filter;
  });

  /** `attrPath "[" valFilter "]"`, the brackets and what is inside. */
  private readonly bracketed = this.RULE('bracketed', (): Filter => {
    const open = this.CONSUME(LBracket);
    if (this.valuePathDepth > 0 && !this.recording) this.problem(open, 'a value filter cannot contain another value filter');
    this.valuePathDepth++;
    const filter = this.SUBRULE(this.orExpr);
    this.CONSUME(RBracket);
    this.valuePathDepth--;
    return filter;
  });

  private readonly subAttrToken = (): IToken => this.CONSUME(SubAttr);

  /** `attrExp`, `valuePath`, and `valuePath subAttr (compareOp compValue / "pr")` as Entra sends it. */
  private readonly attrExpr = this.RULE('attrExpr', (): Filter => {
    const word = this.CONSUME(AttrPathToken);
    const tail = this.OR(this.attrTails);
    if (this.recording) return RECORDED;
    const path = splitAttrPath(word.image);
    if (tail.kind === 'present') return { kind: 'present', path };
    if (tail.kind === 'compare') return { kind: 'compare', path, op: tail.op, value: tail.value };
    // `emails[type eq "work"].value eq "x"` holds on one element: `emails[type eq "work" and value eq "x"]`.
    return { kind: 'valuePath', path, filter: tail.extra === undefined ? tail.filter : { kind: 'and', left: tail.filter, right: tail.extra } };
  });

  private readonly attrTails = [
    { ALT: (): AttrTail => (this.CONSUME(Pr), PRESENT) },
    { ALT: (): AttrTail => this.comparison(this.CONSUME(CompareOp), this.SUBRULE(this.compValue)) },
    { ALT: (): AttrTail => ({ kind: 'valuePath', filter: this.SUBRULE(this.bracketed), extra: this.OPTION(this.subAttrTest) }) },
  ];

  /** After `valuePath`: `"." ATTRNAME` and `pr` or a comparison, on the same element. */
  private readonly subAttrTest = (): Filter => {
    const sub = this.CONSUME(SubAttr);
    const tail = this.OR1(this.subAttrTails);
    if (this.recording) return RECORDED;
    const path = { attr: sub.image.slice(1) };
    return tail.kind === 'compare' ? { kind: 'compare', path, op: tail.op, value: tail.value } : { kind: 'present', path };
  };

  private readonly subAttrTails = [
    { ALT: (): AttrTail => (this.CONSUME1(Pr), PRESENT) },
    { ALT: (): AttrTail => this.comparison(this.CONSUME1(CompareOp), this.SUBRULE1(this.compValue)) },
  ];

  private comparison(op: IToken, value: CompValue): AttrTail {
    return { kind: 'compare', op: toOperator(op), value };
  }

  /** `compValue = false / null / true / number / string`, JSON per RFC 7159. */
  private readonly compValue = this.RULE('compValue', (): CompValue => this.OR(this.compValues));

  private readonly compValues = [
    {
      ALT: (): CompValue => {
        const token = this.CONSUME(StringValue);
        return this.recording ? '' : (JSON.parse(token.image) as string);
      },
    },
    {
      ALT: (): CompValue => {
        const token = this.CONSUME(NumberValue);
        const value = Number(token.image);
        if (!Number.isFinite(value) && !this.recording) this.problem(token, `the number ${token.image} is out of range`);
        return value;
      },
    },
    { ALT: (): CompValue => (this.CONSUME(True), true) },
    { ALT: (): CompValue => (this.CONSUME(False), false) },
    { ALT: (): CompValue => (this.CONSUME(Null), null) },
  ];

  private problem(token: IToken, message: string): void {
    this.semantic ??= { offset: token.startOffset, message };
  }

  /**
   * Runs one start rule over the tokens; the first problem by offset, the lexer's included, wins.
   * Every field a run uses is reset before it and released after it: nothing of one parse is seen by
   * the next, so the one instance is shared as an immutable grammar.
   */
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
    this.input = EMPTY;
    this.folded = RECORDED;
    let first = lexProblem;
    if (syntax !== undefined) {
      const offset = Number.isNaN(syntax.token.startOffset) ? textLength : syntax.token.startOffset;
      if (first === undefined || offset < first.offset) first = { offset, message: syntax.message };
    }
    // Set by the rule just run (TypeScript cannot see that).
    const semantic = this.semantic as SyntaxProblem | undefined;
    if (semantic !== undefined && (first === undefined || semantic.offset < first.offset)) first = semantic;
    return first === undefined ? { ok: true, value } : { ok: false, problem: first };
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
