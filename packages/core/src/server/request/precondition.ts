import { err, ok, type Result } from '../../errors/result.js';
import { httpError } from '../../errors/scim-error.js';
import type { ScimResource } from '../../schema/scim-resource.js';
import { etagListMatches } from './etag-list.js';
import { requestHeader } from './request-header.js';
import type { ScimRequest } from './scim-request.js';

/**
 * The `If-Match` precondition of PUT, PATCH and DELETE (RFC 7644 §3.14): absent passes; otherwise
 * the current version must be listed (or `*`), else 412 "ETag mismatch" and nothing changes.
 * Returns the header (undefined when absent), which the write then uses for its compare-and-swap.
 */
export function checkIfMatch(request: ScimRequest, current: ScimResource): Result<string | undefined> {
  const header = requestHeader(request, 'if-match');
  if (header === undefined || header.trim() === '') return ok(undefined);
  return etagListMatches(header, current.meta.version) ? ok(header) : err(httpError(412, 'ETag mismatch'));
}

/** `If-None-Match` on a read (RFC 7644 §3.14): true when the client's copy is current (answer 304). */
export function ifNoneMatchHits(request: ScimRequest, current: ScimResource): boolean {
  const header = requestHeader(request, 'if-none-match');
  return header !== undefined && header.trim() !== '' && etagListMatches(header, current.meta.version);
}
