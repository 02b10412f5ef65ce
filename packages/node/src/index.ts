export { createNodeHandler } from './create-node-handler.js';
export type { NodeHandler, NodeHandlerOptions } from './create-node-handler.js';
