/**
 * @scimkit/koa: serve a scimkit server from Koa 2 or 3, with or without @koa/router.
 *
 * @module @scimkit/koa
 */
export { scimMiddleware } from './scim-middleware.js';
export type { ScimMiddlewareOptions } from './scim-middleware.js';
export type { ScimHandler } from '@scimkit/core';
/** Re-exported from @scimkit/core: a `clientError` listener giving requests Node's HTTP parser refuses a SCIM error body, and the connection limits and timeouts of the example servers. */
export { answerClientError, limitHttpServer, DEFAULT_HTTP_SERVER_LIMITS } from '@scimkit/core';
export type { HttpServerLimits } from '@scimkit/core';
