/**
 * @scimkit/express: serve a scimkit server from Express 4 or 5.
 *
 * @module @scimkit/express
 */
export { createScimRouter, scimRouter } from './create-scim-router.js';
export type { ScimRouterOptions } from './create-scim-router.js';
/** Re-exported from `@scimkit/core/adapter`: a `clientError` listener giving requests Node's HTTP parser refuses a SCIM error body, and the connection limits and timeouts of the example servers. */
export { answerClientError, limitHttpServer, DEFAULT_HTTP_SERVER_LIMITS } from '@scimkit/core/adapter';
export type { HttpServerLimits, ScimHandler } from '@scimkit/core/adapter';
