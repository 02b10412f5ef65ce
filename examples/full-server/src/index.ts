export { createFullServerConfig } from './config.js';
export type { FullServerOptions } from './config.js';
export { bearerToken } from './bearer-token.js';
export { reservedGroupNames } from './reserved-names.js';
