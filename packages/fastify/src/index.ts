/**
 * @scimkit/fastify: serve a scimkit server from Fastify 4 or 5, as a plugin.
 *
 * @module @scimkit/fastify
 */
export { scimPlugin } from './scim-plugin.js';
export type { ScimPluginOptions } from './scim-plugin.js';
export { scimFrameworkErrors } from './scim-framework-errors.js';
export type { ScimHandler } from '@scimkit/core';
/** Re-exported from @scimkit/core: a `clientError` listener giving requests Node's HTTP parser refuses a SCIM error body, and the connection limits and timeouts of the example servers. */
export { answerClientError, limitHttpServer, DEFAULT_HTTP_SERVER_LIMITS } from '@scimkit/core';
export type { HttpServerLimits } from '@scimkit/core';
