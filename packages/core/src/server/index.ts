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
  ScimLogger,
  ScimServerLimits,
  CompatibilityOptions,
  CompatibilityProfile,
  CompatibilityConfig,
  BulkOptions,
  MeTarget,
  PaginationOptions,
  DiscoveryOptions,
} from './scim-server-config.js';
export { COMPATIBILITY_PROFILES } from './compatibility/index.js';
export { DEFAULT_LIMITS, DEFAULT_COMPATIBILITY } from './server-context.js';
export { SCIM_MEDIA_TYPE } from './serialize.js';
export { etagListMatches } from './etag-list.js';
