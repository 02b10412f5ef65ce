import type { ScimResource } from '../../../schema/scim-resource.js';
import { jsonResponse } from '../../response/serialize.js';
import type { ScimResponse } from '../../request/scim-request.js';

/**
 * A single-resource response: `ETag` equals `meta.version` (RFC 7644 §3.14) and, on 201,
 * `Location` equals `meta.location` (RFC 7644 §3.3).
 */
export function resourceResponse(status: number, body: Record<string, unknown>, stored: ScimResource, location?: string): ScimResponse {
  const headers: Record<string, string> = { ETag: stored.meta.version };
  if (status === 201 && location !== undefined) headers['Location'] = location;
  return jsonResponse(status, body, headers);
}
