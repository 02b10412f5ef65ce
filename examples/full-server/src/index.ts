export { createFullServerConfig } from './config.js';
export type { FullServerOptions } from './config.js';
export { reservedGroupNames } from './reserved-names.js';
