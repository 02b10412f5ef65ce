/**
 * @scimkit/express: serve a scimkit server from Express 4 or 5.
 *
 * @module @scimkit/express
 */
export { scimRouter } from './scim-router.js';
export type { ScimRouterOptions } from './scim-router.js';
export type { ScimHandler } from '@scimkit/core';
/** Re-exported from @scimkit/core: a `clientError` listener giving requests Node's HTTP parser refuses a SCIM error body. */
export { answerClientError } from '@scimkit/core';
