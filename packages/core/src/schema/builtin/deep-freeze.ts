/**
 * Freezes `value` and everything reachable from it. The built-in definitions are shared by every
 * server in the process: frozen, a caller that edits one (instead of spreading a copy) gets a
 * TypeError rather than changing every other server. `Object.isFrozen` only stops the walk at what
 * is frozen already (a shared part); it keeps and infers nothing.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return value;
}
