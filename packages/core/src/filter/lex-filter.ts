import type { IToken, TokenType } from 'chevrotain';
import { attrNameEnd, attrPathEnd } from './attr-path-syntax.js';
import { AttrPathToken, type Keyword, keywordCandidates, LBracket, LParen, NumberValue, RBracket, RParen, StringValue, SubAttr } from './filter-tokens.js';
import type { SyntaxProblem } from './syntax-outcome.js';

/** The tokens of a filter or path, and the first character no token could start at. */
export interface Lexed {
  readonly tokens: IToken[];
  readonly problem?: SyntaxProblem;
}

/**
 * Splits filter or path text into chevrotain tokens (the types of `filter-tokens.ts`) for the one
 * chevrotain parser, which takes any `IToken[]`.
 *
 * Why not chevrotain's own Lexer: on filters of a few tokens its cost per `tokenize()` call (closures,
 * arrays and mode tables set up before the first token, each keyword tried before its longer
 * alternative, a regular expression per token) was more than half of scim2-parse-filter's whole
 * parse, with offsets only, optimisations ensured and start characters hinted, and still so without
 * any keyword token; with the parser on top, scimkit stayed below scim2-parse-filter's speed
 * (docs/performance.md, filter parsing). This function is the lexical grammar, written once; the
 * parser holds the rest. It is pure: nothing is kept between calls. It reads:
 *
 * - whitespace (SP, HTAB, CR, LF), skipped;
 * - a JSON string (RFC 7159 §7: every escape, no raw control character) or number (§6);
 * - `(` `)` `[` `]`, and `"." ATTRNAME` (a sub-attribute after `]`);
 * - an attribute path (`attr-path-syntax.ts`); a word that is exactly a keyword (`and`, `or`, `not`,
 *   `pr`, `true`, `false`, `null` or a comparison operator, in any case) is that keyword, so
 *   `andrew` and `pr.x` are names.
 *
 * It stops at the first character no token starts at (`problem`, in SCIM words): the parser still
 * runs over the tokens before it, so a syntax error earlier in the text is the one reported, and the
 * tokens it did not read could only yield problems further on.
 */
export function lexFilter(text: string): Lexed {
  const tokens: IToken[] = [];
  const length = text.length;
  let start = 0;
  while (start < length) {
    const c = text.charCodeAt(start);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
      start++;
      continue;
    }
    let type: TokenType;
    let end: number;
    if (c === 0x22 /* " */) {
      type = StringValue;
      end = stringEnd(text, start);
    } else if (c === 0x2d /* - */ || isDigit(c)) {
      type = NumberValue;
      end = numberEnd(text, start);
    } else if (c === 0x28 /* ( */ || c === 0x29 /* ) */ || c === 0x5b /* [ */ || c === 0x5d /* ] */) {
      type = c === 0x28 ? LParen : c === 0x29 ? RParen : c === 0x5b ? LBracket : RBracket;
      end = start + 1;
    } else if (c === 0x2e /* . */) {
      type = SubAttr;
      end = attrNameEnd(text, start + 1);
    } else {
      type = AttrPathToken;
      end = attrPathEnd(text, start);
    }
    if (end < 0) return { tokens, problem: lexProblem(text, start) };
    if (type === AttrPathToken) type = keywordAt(text, start, end) ?? type;
    const image = text.slice(start, end);
    // The shape of chevrotain's own tokens with offsets only.
    tokens.push({ image, startOffset: start, endOffset: end - 1, tokenTypeIdx: type.tokenTypeIdx as number, tokenType: type });
    start = end;
  }
  return { tokens };
}

/** The keyword the word from `start` to `end` spells in any case, if it is one (no allocation: this runs for every word). */
function keywordAt(text: string, start: number, end: number): TokenType | undefined {
  const candidates = keywordCandidates(end - start, text.charCodeAt(start));
  for (let k = 0; k < candidates.length; k++) {
    const { word, type } = candidates[k] as Keyword;
    let i = 0;
    // `| 0x20` lower-cases a letter and turns no other character of a word into one.
    while (i < word.length && word.charCodeAt(i) === (text.charCodeAt(start + i) | 0x20)) i++;
    if (i === word.length) return type;
  }
  return undefined;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHexDigit(c: number): boolean {
  const lower = c | 0x20;
  return isDigit(c) || (lower >= 0x61 && lower <= 0x66);
}

function digitsEnd(text: string, start: number): number {
  let i = start;
  while (isDigit(text.charCodeAt(i))) i++;
  return i;
}

/** The end of the JSON number at `start` (`-? (0 / [1-9] DIGIT*) ["." DIGIT+] [("e"/"E") ["+"/"-"] DIGIT+]`), or -1. */
function numberEnd(text: string, start: number): number {
  let i = text.charCodeAt(start) === 0x2d ? start + 1 : start;
  const first = text.charCodeAt(i);
  if (first === 0x30) i++;
  else if (first >= 0x31 && first <= 0x39) i = digitsEnd(text, i + 1);
  else return -1;
  if (text.charCodeAt(i) === 0x2e && isDigit(text.charCodeAt(i + 1))) i = digitsEnd(text, i + 2);
  if ((text.charCodeAt(i) | 0x20) === 0x65 /* e */) {
    const sign = text.charCodeAt(i + 1);
    const digits = sign === 0x2b || sign === 0x2d ? i + 2 : i + 1;
    if (isDigit(text.charCodeAt(digits))) i = digitsEnd(text, digits + 1);
  }
  return i;
}

/** The end of the JSON string whose opening quote is at `start`, or -1 when it is not one. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return -1;
    if (c !== 0x5c /* \ */) continue;
    const escape = text.charCodeAt(++i);
    if (escape === 0x75 /* u */) {
      if (!(isHexDigit(text.charCodeAt(i + 1)) && isHexDigit(text.charCodeAt(i + 2)) && isHexDigit(text.charCodeAt(i + 3)) && isHexDigit(text.charCodeAt(i + 4)))) return -1;
      i += 4;
    } else if (!SIMPLE_ESCAPES.includes(escape)) {
      return -1;
    }
  }
  return -1;
}

/** The characters after `\` in a JSON string's two-character escapes: `" \ / b f n r t`. */
const SIMPLE_ESCAPES: readonly number[] = Object.freeze([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

/** Why no token starts at `offset`: a string that does not close, a quote that is not JSON, a stray character. */
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
