import type { ScimError } from '../errors/scim-error.js';
import { errorBody, SCIM_MEDIA_TYPE } from '../server/response/serialize.js';
import type { ScimResponse } from '../server/request/scim-request.js';

/**
 * The RFC 7644 §3.12 response for `error` (`application/scim+json`), with extra `headers`. For an
 * adapter that answers before `handle()` can (413, 408, a path outside the mount point).
 */
export function scimErrorResponse(error: ScimError, headers: Readonly<Record<string, string>> = {}): ScimResponse {
  return { status: error.status, headers: { 'Content-Type': SCIM_MEDIA_TYPE, ...headers }, body: JSON.stringify(errorBody(error)) };
}
