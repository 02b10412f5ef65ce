export { createScimServer } from './create-scim-server.js';
export type { ScimServer } from './create-scim-server.js';
export type { ScimRequest, ScimResponse } from './request/scim-request.js';
export { ALL_OPERATIONS } from './config/scim-server-config.js';
export type {
  ScimServerConfig,
  ResourceTypeConfig,
  ScimOperation,
  AuthenticationScheme,
  AuthenticationResult,
  AccessKind,
  AuthorizationEvent,
  AuthorizationResult,
  AdmissionEvent,
  AdmissionResult,
  ChangeEvent,
  IgnoredAttributeReport,
  BeforeWriteEvent,
  BeforeWriteResult,
  MembershipOptions,
  NotFoundDetail,
  ScimServerLimits,
  RecentVersionsOptions,
  CompatibilityOptions,
  CompatibilityProfile,
  CompatibilityConfig,
  BulkOptions,
  MeTarget,
  PaginationOptions,
  DiscoveryOptions,
} from './config/scim-server-config.js';
export { COMPATIBILITY_PROFILES } from './config/index.js';
export { DEFAULT_LIMITS, DEFAULT_COMPATIBILITY, DEFAULT_TENANT_CACHE_SIZE } from './config/server-context.js';
export { MAX_REQUEST_ID_LENGTH, MAX_TENANT_LENGTH } from './observe/index.js';
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
} from './observe/index.js';
export { SCIM_MEDIA_TYPE } from './response/serialize.js';
export { etagListMatches } from './request/etag-list.js';
