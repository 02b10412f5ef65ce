import type { ScimRequest, ScimResponse } from '../server/request/scim-request.js';

/**
 * What every adapter serves: `createScimServer()`'s result, or anything else with its `handle()`
 * (a wrapper that picks a server per tenant, a test double). `config.limits.maxBodyBytes`, when
 * present, is the adapters' default body limit.
 */
export interface ScimHandler {
  handle(request: ScimRequest): Promise<ScimResponse>;
  readonly config?: { readonly limits?: { readonly maxBodyBytes?: number | undefined } | undefined } | undefined;
}
