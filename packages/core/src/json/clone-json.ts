import { setOwn } from './with-entry.js';

/**
 * Copies a JSON value. Own keys named `__proto__` are copied as own data properties (never as a
 * prototype), so the copy cannot be used to reach `Object.prototype`.
 */
export function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => cloneJson(item)) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setOwn(out, key, cloneJson((value as Record<string, unknown>)[key]));
  return out as T;
}
