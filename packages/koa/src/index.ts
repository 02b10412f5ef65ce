/**
 * @scimkit/koa: serve a scimkit server from Koa 2 or 3, with or without @koa/router.
 *
 * @module @scimkit/koa
 */
export { scimMiddleware } from './scim-middleware.js';
export type { ScimMiddlewareOptions } from './scim-middleware.js';
export type { ScimHandler } from '@scimkit/core';
/** Re-exported from @scimkit/core: a `clientError` listener giving requests Node's HTTP parser refuses a SCIM error body. */
export { answerClientError } from '@scimkit/core';
