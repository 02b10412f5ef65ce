/** A new resource id (RFC 7643 §3.1: unique, stable, never reassigned): a random UUID v4. */
export function randomId(): string {
  return globalThis.crypto.randomUUID();
}
