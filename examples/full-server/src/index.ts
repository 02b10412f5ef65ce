export { createFullServerConfig } from './config.js';
export { parseTenants } from './parse-tenants.js';
export type { TenantToken } from './parse-tenants.js';
export type { FullServerOptions, UserToken } from './config.js';
export { reservedGroupNames } from './reserved-names.js';
export { parseClients, createFullServerOAuth } from './oauth-clients.js';
export type { ClientCredential, FullServerOAuth } from './oauth-clients.js';
