import { err, ok, type Result } from '../../errors/result.js';
import { scimError } from '../../errors/scim-error.js';
import type { ScimRequest } from './scim-request.js';

/**
 * `limits.maxQueryParameters`: a SCIM request names at most seven query parameters (RFC 7644
 * §3.4.2: filter, sortBy, sortOrder, startIndex, count, attributes, excludedAttributes). More values
 * than the limit, repeats counted, is 400 invalidValue naming the limit: a query of thousands of
 * `attributes=…` would otherwise become a projection of thousands of paths per resource.
 */
export function checkQueryParameters(request: ScimRequest, max: number): Result<void> {
  const query: unknown = request.query;
  if (typeof query !== 'object' || query === null) return ok(undefined);
  let count = 0;
  for (const key of Object.keys(query)) {
    const value: unknown = (query as Record<string, unknown>)[key];
    count += Array.isArray(value) ? value.length : 1;
    if (count > max) return err(scimError('invalidValue', `The request has more than ${max} query parameters (limits.maxQueryParameters)`));
  }
  return ok(undefined);
}
