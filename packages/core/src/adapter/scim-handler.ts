import type { ScimRequest, ScimResponse } from '../server/request/scim-request.js';

/**
 * What every adapter serves: `createScimServer()`'s result, or anything else with its `handle()`
 * (a wrapper that picks a server per tenant, a test double, the `@scimkit/oauth` token endpoint). `config.limits.maxBodyBytes`, when
 * present, is the adapters' default body limit.
 */
export interface ScimHandler {
  handle(request: ScimRequest): Promise<ScimResponse>;
  /**
   * Called by every adapter before it reads the request body, with the request minus its body: a
   * response refuses the request (a 429 from a rate limit) and is sent as is; undefined goes on.
   * `createScimServer()` provides it (see `ScimServerConfig.admit`); optional for other handlers.
   */
  admit?(request: ScimRequest): Promise<ScimResponse | undefined>;
  readonly config?: { readonly limits?: { readonly maxBodyBytes?: number | undefined } | undefined } | undefined;
}
