/**
 * @scimkit/node: serve a scimkit server from Node `http` (and `https`, `http2` compatibility mode,
 * Connect-style chains).
 *
 * @module @scimkit/node
 */
export { answerClientError } from '@scimkit/core';
export { createNodeHandler } from './create-node-handler.js';
export type { NodeHandler, NodeHandlerOptions } from './create-node-handler.js';
