import type { AttrPath } from './ast.js';

/*
 * The syntax of an attribute path, read by hand (the filter lexer calls these for every word, so they
 * avoid regular expressions and their per-call state):
 *
 *   attrPath = [URI ":"] ATTRNAME *1subAttr
 *   ATTRNAME = ALPHA *(nameChar), nameChar = "-" / "_" / DIGIT / ALPHA
 *
 * (RFC 7644 §3.4.2.2, Figure 1), plus `$ref`, the one attribute name RFC 7643 spells with a `$`
 * (§2.3.7). The URI is everything up to the last ':' that is followed by an attribute name, so
 * `urn:…:2.0:User:name.givenName` is URI `urn:…:2.0:User`, attr `name`, subAttr `givenName`. Schema
 * URIs are URNs in practice, so a URI may hold dots; the characters that structure a filter
 * (whitespace, quotes, brackets, parentheses, commas) end it. Every function here is linear in the
 * length of the word.
 */

const OTHER = 0;
/** One of `.:+%/=;@~!*?#&`: a URI character that is not a nameChar. */
const URI = 1;
/** `-`, `_` or a digit: a nameChar that is not a letter. */
const NAME = 2;
const ALPHA = 3;

/** The class of each ASCII character, one character of this string each (a string: immutable, and read fast). */
const ASCII_CLASSES = Array.from({ length: 0x80 }, (_, code) => {
  const char = String.fromCharCode(code);
  if (/[A-Za-z]/.test(char)) return ALPHA;
  if (/[\d_-]/.test(char)) return NAME;
  return '.:+%/=;@~!*?#&'.includes(char) ? URI : OTHER;
})
  .map((charClass) => String.fromCharCode(charClass))
  .join('');

/** The class of a UTF-16 code unit (`NaN`, past the end of a text, is OTHER). */
function classOf(code: number): number {
  return code < 0x80 ? ASCII_CLASSES.charCodeAt(code) : OTHER;
}

/** The end of the `ATTRNAME` starting at `start` (a letter and nameChars, or `$ref` in any case), or -1. */
export function attrNameEnd(text: string, start: number): number {
  const c = text.charCodeAt(start);
  if (classOf(c) === ALPHA) {
    let i = start + 1;
    while (classOf(text.charCodeAt(i)) >= NAME) i++;
    return i;
  }
  const isRef =
    c === 0x24 /* $ */ &&
    (text.charCodeAt(start + 1) | 0x20) === 0x72 /* r */ &&
    (text.charCodeAt(start + 2) | 0x20) === 0x65 /* e */ &&
    (text.charCodeAt(start + 3) | 0x20) === 0x66; /* f */
  return isRef ? start + 4 : -1;
}

/** The end of the longest `attrPath` starting at `start`, or -1 when none starts there. */
export function attrPathEnd(text: string, start: number): number {
  const nameEnd = classOf(text.charCodeAt(start)) === ALPHA ? uriAndNameEnd(text, start) : attrNameEnd(text, start);
  if (nameEnd < 0 || text.charCodeAt(nameEnd) !== 0x2e /* . */) return nameEnd;
  const subEnd = attrNameEnd(text, nameEnd + 1);
  return subEnd < 0 ? nameEnd : subEnd;
}

/** The end of `[URI ":"] ATTRNAME` at `start`, a letter. */
function uriAndNameEnd(text: string, start: number): number {
  let leadingNameEnd = start + 1;
  while (classOf(text.charCodeAt(leadingNameEnd)) >= NAME) leadingNameEnd++;
  // Most names end at a space or a bracket: no URI can start there.
  if (classOf(text.charCodeAt(leadingNameEnd)) === OTHER) return leadingNameEnd;
  // One pass over the rest of the run of URI characters, to its last ':'.
  let lastColon = -1;
  for (let i = leadingNameEnd; ; i++) {
    const c = text.charCodeAt(i);
    const charClass = classOf(c);
    if (charClass === OTHER) break;
    if (c === 0x3a /* : */) lastColon = i;
  }
  // The URI ends at the last ':' of the run that an attribute name follows; without one, no URI.
  for (let colon = lastColon; colon > start; colon--) {
    const end = text.charCodeAt(colon) === 0x3a ? attrNameEnd(text, colon + 1) : -1;
    if (end >= 0) return end;
  }
  return leadingNameEnd;
}

/** Splits a word already known to be one attribute path into its parts, keeping the client's spelling. */
export function splitAttrPath(word: string): AttrPath {
  // Object literals of one shape each, no spreads: this runs for every attribute path parsed.
  const colon = word.lastIndexOf(':');
  const rest = colon >= 0 ? word.slice(colon + 1) : word;
  const dot = rest.indexOf('.');
  if (colon < 0) return dot < 0 ? { attr: rest } : { attr: rest.slice(0, dot), subAttr: rest.slice(dot + 1) };
  const uri = word.slice(0, colon);
  return dot < 0 ? { uri, attr: rest } : { uri, attr: rest.slice(0, dot), subAttr: rest.slice(dot + 1) };
}

/** True when `text` is exactly one attribute path. */
export function isAttrPath(text: string): boolean {
  return text !== '' && attrPathEnd(text, 0) === text.length;
}
