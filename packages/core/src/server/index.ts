export { createScimServer } from './create-scim-server.js';
export type { ScimServer } from './create-scim-server.js';
export type { ScimRequest, ScimResponse } from './scim-request.js';
export { ALL_OPERATIONS } from './scim-server-config.js';
export type {
  ScimServerConfig,
  ResourceTypeConfig,
  ScimOperation,
  AuthenticationScheme,
  AuthenticationResult,
  ChangeEvent,
  BeforeWriteEvent,
  BeforeWriteResult,
  MembershipOptions,
  NotFoundDetail,
  ScimLogger,
  ScimServerLimits,
  CompatibilityOptions,
} from './scim-server-config.js';
export { DEFAULT_LIMITS, DEFAULT_COMPATIBILITY } from './server-context.js';
export { SCIM_MEDIA_TYPE } from './serialize.js';
export { etagListMatches } from './etag-list.js';
