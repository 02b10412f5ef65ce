/**
 * RFC 7643 §2.1: `ATTRNAME = ALPHA *(nameChar)`, `nameChar = "-" / "_" / DIGIT / ALPHA`, plus the
 * reserved `$ref` sub-attribute name of RFC 7643 §2.4/§4.
 */
const ATTRNAME = /^(?:[A-Za-z][A-Za-z0-9_-]*|\$ref)$/;

/** True for a valid attribute name. `__proto__` never is one; `constructor`/`prototype` only when declared. */
export function isAttributeName(name: string): boolean {
  return ATTRNAME.test(name);
}

/** Keys that must never be copied onto an object from input (prototype pollution). */
export function isForbiddenKey(key: string): boolean {
  return key === '__proto__' || key === 'constructor' || key === 'prototype';
}
