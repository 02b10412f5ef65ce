/**
 * A shallow copy of `object` with `key` set to `value` (added, or replacing the copied one). Built
 * key by key instead of `{ ...object, [key]: value }`: V8 (Node 20) gives an object spread followed
 * by a new key its slow path, ~0.5 µs each, several times per request. An own `__proto__` key (JSON
 * data can hold one) stays a key, never a prototype.
 */
export function withEntry<T extends object, K extends keyof T & string>(object: T, key: K, value: T[K]): T;
export function withEntry<T extends object, K extends string, V>(object: T, key: K, value: V): T & { [P in K]: V };
export function withEntry(object: object, key: string, value: unknown): object {
  const out = copyObject(object as Readonly<Record<string, unknown>>);
  setOwn(out, key, value);
  return out;
}

/**
 * A shallow copy of `source` to add keys to (when one key is added, {@link withEntry}). Built key by
 * key, not spread: V8 gives a spread copy a map of its own, and each key added to it afterwards
 * costs ~0.5 µs. An own `__proto__` key is copied as an own data property.
 */
export function copyObject(source: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(source)) setOwn(out, name, source[name]);
  return out;
}

/** `target[key] = value`, also for the key `__proto__` (which an assignment would treat as the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
