/** A lone UTF-16 surrogate: in `u` mode a well-formed pair is one code point, never in `Cs`. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The first string (value or member name) of a parsed JSON value that is not well-formed Unicode,
 * i.e. holds a lone UTF-16 surrogate such as `"\ud800"`, else undefined. RFC 8259 §8.2 leaves such
 * strings unpredictable and RFC 7643 §2.3.1 makes SCIM strings sequences of Unicode characters,
 * which a lone surrogate is not. Walks iteratively (the depth of the value does not matter) and
 * visits each object once (a framework-parsed body could even be cyclic).
 */
export function illFormedString(value: unknown): string | undefined {
  const pending: unknown[] = [value];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      if (LONE_SURROGATE.test(next)) return next;
    } else if (typeof next === 'object' && next !== null && !seen.has(next)) {
      seen.add(next);
      if (Array.isArray(next)) {
        for (const element of next) pending.push(element);
        continue;
      }
      for (const [key, member] of Object.entries(next)) {
        if (LONE_SURROGATE.test(key)) return key;
        pending.push(member);
      }
    }
  }
  return undefined;
}
