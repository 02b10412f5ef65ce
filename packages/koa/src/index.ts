/**
 * @scimkit/koa: serve a scimkit server from Koa 2 or 3, with or without @koa/router.
 *
 * @module @scimkit/koa
 */
export { createScimMiddleware, scimMiddleware } from './create-scim-middleware.js';
export type { ScimMiddlewareOptions } from './create-scim-middleware.js';
/** Re-exported from `@scimkit/core/adapter`: a `clientError` listener giving requests Node's HTTP parser refuses a SCIM error body, and the connection limits and timeouts of the example servers. */
export { answerClientError, limitHttpServer, DEFAULT_HTTP_SERVER_LIMITS } from '@scimkit/core/adapter';
export type { HttpServerLimits, ScimHandler } from '@scimkit/core/adapter';
