/**
 * @scimkit/node: serve a scimkit server from Node `http` (and `https`, `http2` compatibility mode,
 * Connect-style chains).
 *
 * @module @scimkit/node
 */
export { answerClientError, limitHttpServer, DEFAULT_HTTP_SERVER_LIMITS } from '@scimkit/core';
export type { HttpServerLimits } from '@scimkit/core';
export { createNodeHandler } from './create-node-handler.js';
export { DEFAULT_MAX_PIPELINED_REQUESTS } from '@scimkit/core';
export type { NodeHandler, NodeHandlerOptions } from './create-node-handler.js';
export type { ScimHandler } from '@scimkit/core';
