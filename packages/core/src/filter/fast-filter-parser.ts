import type { AttrPath, CompareOperator, CompValue, Filter, PatchPath } from './ast.js';
import { ATTR_PATH_PATTERN, SUB_ATTR_PATTERN } from './attr-path-syntax.js';

/*
 * A hand-written lexer and recursive-descent parser for the same grammar as `filter-parser.ts`
 * (RFC 7644 §3.4.2.2 Figure 1, §3.5.2 Figure 5), for speed on the common path: it accepts only
 * what that parser accepts and builds the same AST, and it gives up (undefined) at the first thing
 * it does not like, so the chevrotain parser can report the error in its words. Tokens follow
 * `filter-tokens.ts`: keywords are case-insensitive and yield to a longer attribute name, and every
 * keyword but `not` may also be an attribute name.
 */

const enum T {
  Str,
  Num,
  LParen,
  RParen,
  LBracket,
  RBracket,
  Sub,
  Word,
  And,
  Or,
  Not,
  Pr,
  True,
  False,
  Null,
  Op,
  End,
}

const KEYWORDS = new Map<string, T>([
  ['and', T.And],
  ['or', T.Or],
  ['not', T.Not],
  ['pr', T.Pr],
  ['true', T.True],
  ['false', T.False],
  ['null', T.Null],
  ...['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'lt', 'ge', 'le'].map((op): [string, T] => [op, T.Op]),
]);

const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WORD = new RegExp(ATTR_PATH_PATTERN.source, 'y');
const SUB = new RegExp(SUB_ATTR_PATTERN.source, 'y');

/** Kinds and images of the tokens of `text`, ending with End; undefined at a character no token starts with. */
function lex(text: string): { kinds: T[]; images: string[] } | undefined {
  const kinds: T[] = [];
  const images: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      i++;
      continue;
    }
    let kind: T;
    let image: string | null = null;
    if (c === 0x22) {
      STRING.lastIndex = i;
      image = STRING.exec(text)?.[0] ?? null;
      kind = T.Str;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      image = NUMBER.exec(text)?.[0] ?? null;
      kind = T.Num;
    } else if (c === 0x28) {
      kind = T.LParen;
      image = '(';
    } else if (c === 0x29) {
      kind = T.RParen;
      image = ')';
    } else if (c === 0x5b) {
      kind = T.LBracket;
      image = '[';
    } else if (c === 0x5d) {
      kind = T.RBracket;
      image = ']';
    } else if (c === 0x2e) {
      SUB.lastIndex = i;
      image = SUB.exec(text)?.[0] ?? null;
      kind = T.Sub;
    } else {
      WORD.lastIndex = i;
      image = WORD.exec(text)?.[0] ?? null;
      kind = image === null || image.length > 5 ? T.Word : (KEYWORDS.get(image.toLowerCase()) ?? T.Word);
    }
    if (image === null) return undefined;
    kinds.push(kind);
    images.push(image);
    i += image.length;
  }
  kinds.push(T.End);
  images.push('');
  return { kinds, images };
}

/** Thrown to give up; caught at the entry points, never escapes. */
const GIVE_UP = Symbol('give up');

class Parser {
  private at = 0;
  private inValuePath = false;

  constructor(
    private readonly kinds: T[],
    private readonly images: string[],
  ) {}

  private peek(): T {
    return this.kinds[this.at] as T;
  }

  private take(kind: T): string {
    if (this.kinds[this.at] !== kind) throw GIVE_UP;
    return this.images[this.at++] as string;
  }

  end(): void {
    if (this.peek() !== T.End) throw GIVE_UP;
  }

  /** An attribute path: a word, or any keyword but `not`. */
  private attrWord(): string {
    const kind = this.peek();
    if (kind === T.Str || kind === T.Num || kind === T.Not || kind < T.Word || kind === T.End) throw GIVE_UP;
    return this.images[this.at++] as string;
  }

  orExpr(): Filter {
    let left = this.andExpr();
    while (this.peek() === T.Or) {
      this.at++;
      const right = this.andExpr();
      left = { kind: 'or', left, right };
    }
    return left;
  }

  private andExpr(): Filter {
    let left = this.unary();
    while (this.peek() === T.And) {
      this.at++;
      const right = this.unary();
      left = { kind: 'and', left, right };
    }
    return left;
  }

  private unary(): Filter {
    const kind = this.peek();
    if (kind === T.Not) {
      this.at++;
      const filter = this.parenthesised();
      return { kind: 'not', filter };
    }
    if (kind === T.LParen) return this.parenthesised();
    return this.attrExpr();
  }

  private parenthesised(): Filter {
    this.take(T.LParen);
    const filter = this.orExpr();
    this.take(T.RParen);
    return filter;
  }

  bracketed(): Filter {
    this.take(T.LBracket);
    if (this.inValuePath) throw GIVE_UP;
    this.inValuePath = true;
    const filter = this.orExpr();
    this.take(T.RBracket);
    this.inValuePath = false;
    return filter;
  }

  private attrExpr(): Filter {
    const path = toAttrPath(this.attrWord());
    const kind = this.peek();
    if (kind === T.Pr) {
      this.at++;
      return { kind: 'present', path };
    }
    if (kind === T.Op) return this.comparison(path);
    if (kind !== T.LBracket) throw GIVE_UP;
    const inner = this.bracketed();
    if (this.peek() !== T.Sub) return { kind: 'valuePath', path, filter: inner };
    const sub: AttrPath = { attr: this.take(T.Sub).slice(1) };
    let extra: Filter;
    if (this.peek() === T.Pr) {
      this.at++;
      extra = { kind: 'present', path: sub };
    } else extra = this.comparison(sub);
    // `emails[type eq "work"].value eq "x"` holds on one element: `emails[type eq "work" and value eq "x"]`.
    return { kind: 'valuePath', path, filter: { kind: 'and', left: inner, right: extra } };
  }

  private comparison(path: AttrPath): Filter {
    const op = this.take(T.Op).toLowerCase() as CompareOperator;
    return { kind: 'compare', path, op, value: this.compValue() };
  }

  private compValue(): CompValue {
    const kind = this.peek();
    const image = this.images[this.at++] as string;
    switch (kind) {
      case T.Str:
        return JSON.parse(image) as string;
      case T.Num: {
        const value = Number(image);
        if (!Number.isFinite(value)) throw GIVE_UP;
        return value;
      }
      case T.True:
        return true;
      case T.False:
        return false;
      case T.Null:
        return null;
      default:
        throw GIVE_UP;
    }
  }

  patchPath(): PatchPath {
    const attrPath = toAttrPath(this.attrWord());
    if (this.peek() !== T.LBracket) return { attrPath };
    const valueFilter = this.bracketed();
    if (this.peek() !== T.Sub) return { attrPath, valueFilter };
    return { attrPath, valueFilter, subAttr: this.take(T.Sub).slice(1) };
  }
}

function attempt<R>(text: string, rule: (parser: Parser) => R): R | undefined {
  const tokens = lex(text);
  if (tokens === undefined) return undefined;
  const parser = new Parser(tokens.kinds, tokens.images);
  try {
    const value = rule(parser);
    parser.end();
    return value;
  } catch {
    // GIVE_UP, or a RangeError on absurd nesting: the chevrotain parser reports it.
    return undefined;
  }
}

/** The filter's AST, or undefined when the text is not a filter this parser is sure of. */
export function fastFilter(text: string): Filter | undefined {
  return attempt(text, (p) => p.orExpr());
}

/** The PATCH path's AST, or undefined when the text is not a path this parser is sure of. */
export function fastPatchPath(text: string): PatchPath | undefined {
  return attempt(text, (p) => p.patchPath());
}

/** `splitAttrPath` without its spreads: `[uri:]attr[.subAttr]`, keeping the client's spelling. */
function toAttrPath(word: string): AttrPath {
  const colon = word.lastIndexOf(':');
  const rest = colon >= 0 ? word.slice(colon + 1) : word;
  const dot = rest.indexOf('.');
  const attr = dot >= 0 ? rest.slice(0, dot) : rest;
  if (colon < 0) return dot < 0 ? { attr } : { attr, subAttr: rest.slice(dot + 1) };
  const uri = word.slice(0, colon);
  return dot < 0 ? { uri, attr } : { uri, attr, subAttr: rest.slice(dot + 1) };
}
