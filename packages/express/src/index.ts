/**
 * @scimkit/express: serve a scimkit server from Express 4 or 5.
 *
 * @module @scimkit/express
 */
export { scimRouter } from './scim-router.js';
export type { ScimRouterOptions } from './scim-router.js';
export type { ScimHandler } from '@scimkit/core';
/** Re-exported from @scimkit/core: a `clientError` listener giving requests Node's HTTP parser refuses a SCIM error body, and the connection limits and timeouts of the example servers. */
export { answerClientError, limitHttpServer, DEFAULT_HTTP_SERVER_LIMITS } from '@scimkit/core';
export type { HttpServerLimits } from '@scimkit/core';
