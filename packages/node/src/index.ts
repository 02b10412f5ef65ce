/**
 * @scimkit/node: serve a scimkit server from Node `http` (and `https`, `http2` compatibility mode,
 * Connect-style chains).
 *
 * @module @scimkit/node
 */
export { createNodeHandler } from './create-node-handler.js';
export type { NodeHandler, NodeHandlerOptions } from './create-node-handler.js';
/** Re-exported from `@scimkit/core/adapter`: a `clientError` listener giving requests Node's HTTP parser refuses a SCIM error body, and the connection limits and timeouts of the example servers. */
export { answerClientError, limitHttpServer, DEFAULT_HTTP_SERVER_LIMITS, DEFAULT_MAX_PIPELINED_REQUESTS } from '@scimkit/core/adapter';
export type { HttpServerLimits, ScimHandler } from '@scimkit/core/adapter';
