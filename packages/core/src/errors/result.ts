import type { ScimError } from './scim-error.js';

/** What every parser and validator returns: a value, or a SCIM error as data. Nothing throws. */
export type Result<T, E = ScimError> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

export function err<E = ScimError>(error: E): { readonly ok: false; readonly error: E } {
  return { ok: false, error };
}
