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
export { DEFAULT_LIMITS, DEFAULT_COMPATIBILITY, DEFAULT_TENANT_CACHE_SIZE } from './server-context.js';
export { MAX_REQUEST_ID_LENGTH, MAX_TENANT_LENGTH } from './context/index.js';
export type {
  RequestContext,
  RequestEvent,
  ResponseEvent,
  ScimLogger,
  ScimLogRecord,
  ScimLogLevel,
  ScimTracing,
  TracerLike,
  SpanLike,
  ContextLike,
  TenancyOptions,
  TenantConfig,
  RecordedRequest,
  RequestRecorder,
} from './context/index.js';
export { SCIM_MEDIA_TYPE } from './serialize.js';
export { etagListMatches } from './etag-list.js';
