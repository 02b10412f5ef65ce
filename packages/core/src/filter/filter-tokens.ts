import { createToken, type TokenType } from 'chevrotain';

/*
 * The token types of the SCIM filter language (RFC 7644 §3.4.2.2, Figure 1), shared by filters and
 * PATCH paths (RFC 7644 §3.5.2, Figure 5): the parser's vocabulary. They carry no patterns: which text
 * makes which token is written once, in `lex-filter.ts` (it replaces chevrotain's Lexer, see there).
 * Keywords (except `not`) belong to the `AttrPath` category, so an attribute that happens to be called
 * `pr` or `eq` still parses where a name is expected.
 */

/** compValue string: a JSON string (RFC 7159 §7) with every escape, no raw control characters. */
export const StringValue = createToken({ name: 'StringValue', label: 'a JSON string' });
/** compValue number: a JSON number (RFC 7159 §6), integer, decimal or exponent. */
export const NumberValue = createToken({ name: 'NumberValue', label: 'a number' });

export const LParen = createToken({ name: 'LParen', label: "'('" });
export const RParen = createToken({ name: 'RParen', label: "')'" });
export const LBracket = createToken({ name: 'LBracket', label: "'['" });
export const RBracket = createToken({ name: 'RBracket', label: "']'" });

/** `"." ATTRNAME` after `]`. */
export const SubAttr = createToken({ name: 'SubAttr', label: 'a sub-attribute' });

/** `[URI ":"] ATTRNAME *1subAttr` as one token. */
export const AttrPathToken = createToken({ name: 'AttrPath', label: 'an attribute name' });

function keyword(word: string, categories: TokenType[] = [AttrPathToken]): TokenType {
  return createToken({ name: word.charAt(0).toUpperCase() + word.slice(1), label: `'${word}'`, categories });
}

export const And = keyword('and');
export const Or = keyword('or');
/** `not` is only ever the operator: an attribute called `not` would make `not (` ambiguous. */
export const Not = keyword('not', []);
export const Pr = keyword('pr');
export const True = keyword('true');
export const False = keyword('false');
export const Null = keyword('null');

/** The nine comparison operators as one token: the parser reads which from its text. */
export const CompareOp = createToken({ name: 'CompareOp', label: 'a comparison operator', categories: [AttrPathToken] });

/** Every token type, the parser's vocabulary. */
export const filterTokens: readonly TokenType[] = [
  StringValue,
  NumberValue,
  LParen,
  RParen,
  LBracket,
  RBracket,
  SubAttr,
  And,
  Or,
  Not,
  Pr,
  True,
  False,
  Null,
  CompareOp,
  AttrPathToken,
];

/** A keyword: its word, lower-case (any spelling of it is the keyword, RFC 7644 §3.4.2.2), and its token type. */
export interface Keyword {
  readonly word: string;
  readonly type: TokenType;
}

const KEYWORDS: readonly Keyword[] = [
  { word: 'and', type: And },
  { word: 'or', type: Or },
  { word: 'not', type: Not },
  { word: 'pr', type: Pr },
  { word: 'true', type: True },
  { word: 'false', type: False },
  { word: 'null', type: Null },
  ...['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'lt', 'ge', 'le'].map((word): Keyword => ({ word, type: CompareOp })),
];

const LONGEST_KEYWORD = Math.max(...KEYWORDS.map((keyword) => keyword.word.length));
const NONE: readonly Keyword[] = Object.freeze([]);

/** The keywords by the length of their word and the five low bits of its first letter (the lexer's index). */
const KEYWORD_INDEX: readonly (readonly Keyword[])[] = Object.freeze(
  Array.from({ length: (LONGEST_KEYWORD + 1) * 32 }, (_, index) => {
    const found = KEYWORDS.filter((keyword) => keyword.word.length * 32 + (keyword.word.charCodeAt(0) & 31) === index);
    return found.length === 0 ? NONE : Object.freeze(found);
  }),
);

/**
 * The keywords a word of `length` starting with the character `first` could be (in any case: its
 * first letter is among them only if the word's is): a word's whole text still has to be compared.
 * A word longer than every keyword is a name.
 */
export function keywordCandidates(length: number, first: number): readonly Keyword[] {
  return length > LONGEST_KEYWORD ? NONE : (KEYWORD_INDEX[length * 32 + (first & 31)] as readonly Keyword[]);
}
