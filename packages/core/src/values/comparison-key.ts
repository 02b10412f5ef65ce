const ASCII = /^[\x00-\x7f]*$/;

/**
 * The comparison key of a string attribute value: the value itself when the attribute is
 * `caseExact`, else its Unicode NFC form lower-cased (RFC 7643 §2.2 caseExact; the same text is the
 * same value, so NFC `josé` and NFD `jose\u0301` collide: docs/concepts/filters.md). Every
 * case-insensitive comparison of the core uses this one key: uniqueness, every filter operator,
 * PATCH element matching, group members, and every store index (a SQL store indexes the same
 * expression, `lower(normalize(value, NFC))` in PostgreSQL).
 */
export function comparisonKey(value: string, caseExact: boolean): string {
  if (caseExact) return value;
  // ASCII text is already NFC: skip the normalization call on the common case.
  return ASCII.test(value) ? value.toLowerCase() : value.normalize('NFC').toLowerCase();
}

/**
 * `comparisonKey(value, false) === key`, for a `key` that is already a comparison key, without
 * building the key of an ASCII value: its characters are folded one by one (the first differing one
 * answers), and only a value with a non-ASCII character before that gets its whole key built (NFC
 * and case mapping may change its length).
 */
export function matchesKey(value: string, key: string): boolean {
  if (value === key) return true;
  const shorter = Math.min(value.length, key.length);
  for (let i = 0; i < shorter; i++) {
    let code = value.charCodeAt(i);
    if (code >= 0x80) return comparisonKey(value, false) === key;
    if (code >= 0x41 && code <= 0x5a) code += 0x20;
    // An ASCII character lower-cases to one ASCII character: positions so far line up, unless a
    // combining mark after it composes with it under NFC (`e\u0301` is `é`).
    if (code !== key.charCodeAt(i)) return i + 1 < value.length && value.charCodeAt(i + 1) >= 0x80 && comparisonKey(value, false) === key;
  }
  // One is a prefix of the other. A shorter value is all ASCII: its key has its own length.
  // A longer one can only be equal through a non-ASCII character in the rest.
  if (value.length <= key.length) return value.length === key.length;
  for (let i = shorter; i < value.length; i++) if (value.charCodeAt(i) >= 0x80) return comparisonKey(value, false) === key;
  return false;
}

/**
 * @deprecated Renamed {@link comparisonKey}: it is the key of every case-insensitive comparison, not
 * only of uniqueness. This name is removed in the next major version.
 */
export const uniqueKey: (value: string, caseExact: boolean) => string = comparisonKey;
