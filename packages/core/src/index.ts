/**
 * @scimkit/core: a transport-free SCIM 2.0 server (RFC 7643 / RFC 7644). Build one with
 * {@link createScimServer}, keep resources in any {@link ScimStore} ({@link createMemoryStore} is the
 * reference), and serve it through an adapter (`@scimkit/node`, `@scimkit/express`, `@scimkit/koa`).
 *
 * Every public name is listed here, by name; everything else is internal and may change. The
 * schema, filter and PATCH engines the server runs on are a separate entry point,
 * `@scimkit/core/engine`, for stores and tools that need them; `@scimkit/core/testing` is the store
 * conformance kit.
 *
 * @module @scimkit/core
 */

// The server: configuration in, `handle(request) → response` out.
export {
  createScimServer,
  ALL_OPERATIONS,
  DEFAULT_LIMITS,
  DEFAULT_COMPATIBILITY,
  COMPATIBILITY_PROFILES,
  DEFAULT_TENANT_CACHE_SIZE,
  MAX_REQUEST_ID_LENGTH,
  MAX_TENANT_LENGTH,
  SCIM_MEDIA_TYPE,
} from './server/index.js';
export type {
  ScimServer,
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
  ScimRequest,
  ScimResponse,
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
} from './server/index.js';

// Events: derived from committed writes, kept by the store in its outbox (docs/concepts/events.md).
export { MemoryOutbox, eventPartition, DEFAULT_EVENT_PARTITIONS } from './events/index.js';
export type { ScimEvent, ScimEventType, EventOptions, EventOutbox, OutboxLease, OutboxRecord, DeadLetter, PruneResult } from './events/index.js';

// Authentication helpers: `Authorization: Bearer` with constant-time comparison, rotation and tenants.
export { bearerToken } from './auth/index.js';
export type { BearerTokenOptions, BearerTokenEntry, BearerIdentity, BearerTokenAuthentication } from './auth/index.js';

// Storage: the contract a store implements, and the in-memory reference store.
export { createMemoryStore, StoreUnavailableError, isStoreUnavailable, nextCounterVersion } from './store/index.js';
export { comparisonKey, uniqueKey } from './values/index.js';
export type {
  MemoryStoreOptions,
  StoreUnavailableOptions,
  ScimStore,
  StoreCapabilities,
  StoreQuery,
  StoreQueryResult,
  StoreWriteResult,
  StoreDeleteResult,
  StoreAssignment,
  StoreAssignPrevious,
  StoreAssignResult,
  AssignedValue,
  SortSpec,
  UniqueAttribute,
  WriteContext,
  StoreContext,
  DeleteContext,
  MultiValuedChange,
  ReferenceAttribute,
  ReferenceLookup,
  Referral,
  CascadedChange,
  FilterSemantics,
  FilterDecision,
  AttributeFacts,
} from './store/index.js';

// Schemas: the RFC 7643 built-in definitions, the registry that resolves them, and resource shapes.
export {
  URN,
  commonAttributes,
  userSchema,
  groupSchema,
  enterpriseUserSchema,
  serviceProviderConfigSchema,
  resourceTypeSchema,
  schemaSchema,
  userResourceType,
  groupResourceType,
  builtinResourceTypes,
  createSchemaRegistry,
} from './schema/index.js';
export type {
  AttributeType,
  Mutability,
  Returned,
  Uniqueness,
  AttributeDefinition,
  AttributeDefinitionInput,
  SchemaDefinition,
  SchemaDefinitionInput,
  ResourceTypeDefinition,
  ResourceTypeDefinitionInput,
  SchemaRegistry,
  SchemaRegistryOptions,
  ResourceModel,
  ResolvedAttribute,
  ScimResource,
  ScimMeta,
  ScimUser,
  ScimEnterpriseUser,
  ScimName,
  ScimAddress,
  ScimMultiValue,
  ScimUserGroup,
  ScimGroup,
  ScimGroupMember,
} from './schema/index.js';

// The filter AST a store receives in `StoreQuery.filter` (RFC 7644 §3.4.2.2). Parsing, printing and
// compiling filters, PATCH and validation are the engine: `@scimkit/core/engine`.
export type {
  AttrPath,
  CompareOperator,
  CompValue,
  CompareFilter,
  PresentFilter,
  LogicalFilter,
  NotFilter,
  ValuePathFilter,
  Filter,
} from './filter/index.js';

// Errors as data: every scimType with its status, and the SCIM error shape.
export { SCIM_TYPE_STATUS, SCIM_TYPES, isScimType, scimError, httpError, isScimError, ScimException } from './errors/index.js';
export type { ScimType, ScimError, Result } from './errors/index.js';
