/**
 * @scimkit/console: the request log (every SCIM request and answer, redacted, per tenant, in memory
 * or PostgreSQL) and a provisioning console to mount beside the SCIM endpoint
 * (docs/concepts/console.md).
 *
 * @module @scimkit/console
 */
export * from './log/index.js';
export * from './console/index.js';
