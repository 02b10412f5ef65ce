import { SCIM_TYPE_STATUS, type ScimType } from './scim-type.js';

/**
 * A SCIM error as data. It becomes the RFC 7644 §3.12 error body
 * `{"schemas":[ERROR_URN],"status":"400","scimType":"invalidValue","detail":"…"}`.
 * `detail` is always present (`""` when there is nothing to say).
 */
export interface ScimError {
  readonly status: number;
  readonly scimType?: ScimType;
  readonly detail: string;
}

/** An error of one of the RFC 7644 §3.12 types, with the status the table gives it. */
export function scimError(scimType: ScimType, detail: string): ScimError {
  return { status: SCIM_TYPE_STATUS[scimType], scimType, detail };
}

/** An HTTP-level error that has no SCIM type (401, 403, 404, 405, 412, 413, 415, 500 …). */
export function httpError(status: number, detail = ''): ScimError {
  return { status, detail };
}

/**
 * Carries a ScimError through code that cannot return a Result (a store callback, a user hook).
 * The request pipeline turns it back into data; nothing else should catch it.
 */
export class ScimException extends Error {
  readonly error: ScimError;

  constructor(error: ScimError) {
    super(error.detail || `SCIM error ${error.status}`);
    this.name = 'ScimException';
    this.error = error;
  }
}

export function isScimError(value: unknown): value is ScimError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { status?: unknown }).status === 'number' &&
    typeof (value as { detail?: unknown }).detail === 'string'
  );
}
