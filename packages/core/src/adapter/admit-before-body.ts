import { httpError } from '../errors/scim-error.js';
import type { ScimRequest, ScimResponse } from '../server/request/scim-request.js';
import { scimErrorResponse } from './scim-error-response.js';
import type { ScimHandler } from './scim-handler.js';

/**
 * What every adapter does before it reads a request body: ask the handler's `admit()` (a rate limit,
 * `ScimServerConfig.admit`) about the request without its body. A response refuses the request and
 * is sent as is; undefined means read the body and `handle()` it. Never rejects; resolves at once for
 * a handler without `admit()`.
 */
export async function admitBeforeBody(handler: ScimHandler, request: ScimRequest): Promise<ScimResponse | undefined> {
  if (typeof handler.admit !== 'function') return undefined;
  try {
    return await handler.admit(request);
  } catch {
    return scimErrorResponse(httpError(500, 'Internal server error'));
  }
}
