import { createToken, Lexer, type TokenType } from 'chevrotain';
import { ATTR_PATH_PATTERN, SUB_ATTR_PATTERN } from './attr-path-syntax.js';

/*
 * The tokens of the SCIM filter language (RFC 7644 §3.4.2.2, Figure 1), shared by filters, PATCH paths
 * (RFC 7644 §3.5.2, Figure 5). Keywords are case-insensitive and (except `not`) belong to the `AttrPath`
 * category, so an attribute that happens to be called `pr` or `eq` still parses where a name is expected.
 */

export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\r\n]+/, group: Lexer.SKIPPED, line_breaks: true });

/** compValue string: a JSON string (RFC 7159 §7) with every escape, no raw control characters. */
export const StringValue = createToken({
  name: 'StringValue',
  label: 'a JSON string',
  pattern: /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/,
  start_chars_hint: ['"'],
  line_breaks: false,
});

/** compValue number: a JSON number (RFC 7159 §6), integer, decimal or exponent. */
export const NumberValue = createToken({
  name: 'NumberValue',
  label: 'a number',
  pattern: /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/,
  start_chars_hint: ['-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9'],
  line_breaks: false,
});

export const LParen = createToken({ name: 'LParen', label: "'('", pattern: '(' });
export const RParen = createToken({ name: 'RParen', label: "')'", pattern: ')' });
export const LBracket = createToken({ name: 'LBracket', label: "'['", pattern: '[' });
export const RBracket = createToken({ name: 'RBracket', label: "']'", pattern: ']' });

/** `"." ATTRNAME` after `]`. */
export const SubAttr = createToken({
  name: 'SubAttr',
  label: 'a sub-attribute',
  pattern: SUB_ATTR_PATTERN,
  start_chars_hint: ['.'],
  line_breaks: false,
});

/** `[URI ":"] ATTRNAME *1subAttr` as one token. */
export const AttrPathToken = createToken({
  name: 'AttrPath',
  label: 'an attribute name',
  pattern: ATTR_PATH_PATTERN,
  start_chars_hint: [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ$'],
  line_breaks: false,
});


function keyword(word: string, categories: TokenType[] = [AttrPathToken]): TokenType {
  const first = word.charAt(0);
  return createToken({
    name: word.charAt(0).toUpperCase() + word.slice(1),
    label: `'${word}'`,
    pattern: new RegExp(word, 'i'),
    start_chars_hint: [first, first.toUpperCase()],
    longer_alt: AttrPathToken,
    categories,
    line_breaks: false,
  });
}

export const And = keyword('and');
export const Or = keyword('or');
/** `not` is only ever the operator: an attribute called `not` would make `not (` ambiguous. */
export const Not = keyword('not', []);
export const Pr = keyword('pr');
export const True = keyword('true');
export const False = keyword('false');
export const Null = keyword('null');

/**
 * The nine comparison operators as one token (the parser reads which from its text): one pattern to
 * try instead of nine, where the lexer's time goes (docs/performance.md, filter parsing).
 */
export const CompareOp = createToken({
  name: 'CompareOp',
  label: 'a comparison operator',
  pattern: /(?:eq|ne|co|sw|ew|gt|lt|ge|le)/i,
  start_chars_hint: [...'encsgl', ...'ENCSGL'],
  longer_alt: AttrPathToken,
  categories: [AttrPathToken],
  line_breaks: false,
});

/** Lexing order: the first pattern that matches wins; keywords yield to a longer attribute name. */
export const filterTokens: TokenType[] = [
  WhiteSpace,
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
