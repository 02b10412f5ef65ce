/**
 * @scimkit/fastify: serve a scimkit server from Fastify 4 or 5, as a plugin.
 *
 * @module @scimkit/fastify
 */
export { createScimPlugin, scimPlugin } from './create-scim-plugin.js';
export type { ScimPluginOptions, LegacyScimPluginOptions } from './create-scim-plugin.js';
export { scimFrameworkErrors } from './scim-framework-errors.js';
/** Re-exported from `@scimkit/core/adapter`: a `clientError` listener giving requests Node's HTTP parser refuses a SCIM error body, and the connection limits and timeouts of the example servers. */
export { answerClientError, limitHttpServer, DEFAULT_HTTP_SERVER_LIMITS } from '@scimkit/core/adapter';
export type { HttpServerLimits, ScimHandler } from '@scimkit/core/adapter';
