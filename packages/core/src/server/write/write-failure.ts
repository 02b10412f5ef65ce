import { httpError, scimError, type ScimError } from '../../errors/scim-error.js';

/** RFC 7644 §3.3 / §3.5.1: a unique attribute's value is taken, 409 uniqueness. */
export function uniquenessError(attribute: string): ScimError {
  const name = attribute.includes(':') ? attribute.slice(attribute.lastIndexOf(':') + 1) : attribute;
  return scimError('uniqueness', `The value of ${name} is already in use by another resource`);
}

/**
 * The store cannot keep a value of the resource (`StoreWriteResult` `invalidValue`, a limit of the
 * store's own): 400 invalidValue with the store's detail (RFC 7644 §3.12, the value is not
 * acceptable). Nothing was written.
 */
export function storeRefusalError(detail: string): ScimError {
  return scimError('invalidValue', detail);
}

/** RFC 7644 §3.14: the client's `If-Match` no longer names the current version. */
export const ETAG_MISMATCH: ScimError = httpError(412, 'ETag mismatch');

/** Writers in other processes kept winning the compare-and-swap: the client should retry. */
export const WRITE_CONFLICT: ScimError = httpError(409, 'The resource was modified concurrently; retry the request');
