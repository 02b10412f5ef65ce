export { createFullServerConfig } from './config.js';
export { parseTenants } from './parse-tenants.js';
export type { TenantToken } from './parse-tenants.js';
export type { FullServerOptions, UserToken } from './config.js';
export { reservedGroupNames } from './reserved-names.js';
export { fullServerListener } from './full-server-listener.js';
export type { ConsoleSetup } from './full-server-listener.js';
export { parseClients, createFullServerOAuth } from './oauth-clients.js';
export type { ClientCredential, FullServerOAuth } from './oauth-clients.js';
