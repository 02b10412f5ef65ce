/** A test of one attribute value, or of one element of a multi-valued attribute. */
export type ValueTest = (value: unknown) => boolean;

/**
 * Lifts a test on the value at `keys` to a test on the object holding it. Where `multiValued[i]` says
 * the value at `keys[i]` is multi-valued, the test is any-match over its elements (RFC 7644 §3.4.2.2:
 * "if any of the values of the specified attribute match"). Missing levels and non-objects never match.
 * Keys come from the schema (never `__proto__`).
 */
export function anyAt(keys: readonly string[], multiValued: readonly boolean[], test: ValueTest): ValueTest {
  let lifted = test;
  for (let i = keys.length - 1; i >= 0; i--) lifted = multiValued[i] === true ? anyOf(keys[i] as string, lifted) : one(keys[i] as string, lifted);
  return lifted;
}

function one(key: string, next: ValueTest): ValueTest {
  return (holder) => typeof holder === 'object' && holder !== null && next((holder as Record<string, unknown>)[key]);
}

function anyOf(key: string, next: ValueTest): ValueTest {
  return (holder) => {
    if (typeof holder !== 'object' || holder === null) return false;
    const value = (holder as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) if (next(value[i])) return true;
      return false;
    }
    return next(value);
  };
}
