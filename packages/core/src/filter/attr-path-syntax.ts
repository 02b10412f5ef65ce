import type { AttrPath } from './ast.js';

/**
 * `ATTRNAME = ALPHA *(nameChar)`, `nameChar = "-" / "_" / DIGIT / ALPHA` (RFC 7644 §3.4.2.2, Figure 1),
 * plus `$ref`, the one attribute name RFC 7643 spells with a `$` (§2.3.7).
 */
const ATTRNAME = String.raw`(?:[A-Za-z][\w-]*|\$[Rr][Ee][Ff])`;

/**
 * Characters a schema URI may carry before the attribute name. Schema URIs are URNs in practice
 * (`urn:ietf:params:scim:schemas:extension:enterprise:2.0:User`), so dots are allowed; the characters
 * that structure a filter (whitespace, quotes, brackets, parentheses, commas) are not.
 */
const URI_CHAR = String.raw`[\w.:+%/=;@~!*?#&-]`;

/**
 * `attrPath = [URI ":"] ATTRNAME *1subAttr`. The URI is everything up to the last ':' that is followed
 * by an attribute name, so `urn:…:2.0:User:name.givenName` is URI `urn:…:2.0:User`, attr `name`,
 * subAttr `givenName`. No nested quantifiers: matching is linear in the length of the word.
 */
export const ATTR_PATH_PATTERN = new RegExp(String.raw`(?:[A-Za-z]${URI_CHAR}*:)?${ATTRNAME}(?:\.${ATTRNAME})?`);

/** `"." ATTRNAME` after a value filter's closing bracket (`emails[type eq "work"].value`). */
export const SUB_ATTR_PATTERN = new RegExp(String.raw`\.${ATTRNAME}`);

const WHOLE_ATTR_PATH = new RegExp(`^${ATTR_PATH_PATTERN.source}$`);

/** Splits a word already known to match ATTR_PATH_PATTERN into its parts, keeping the client's spelling. */
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
  return WHOLE_ATTR_PATH.test(text);
}
