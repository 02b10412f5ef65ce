import { resolveEvents, type EventSettings } from '../../events/event-options.js';
import type { FilterLimits } from '../../filter/filter-limits.js';
import { DEFAULT_FILTER_LIMITS } from '../../filter/filter-limits.js';
import { DEFAULT_PATCH_OPTIONS, type PatchOptions } from '../../patch/patch-options.js';
import type { ValidationOptions } from '../../schema/validation-options.js';
import type { ResourceModel } from '../../schema/resource-model.js';
import { createSchemaRegistry, type SchemaRegistry } from '../../schema/schema-registry.js';
import type { ScimStore } from '../../store/scim-store.js';
import { normalizeSchema } from '../../schema/normalize-schema.js';
import type { SchemaDefinition } from '../../schema/attribute-definition.js';
import { resourceTypeSchema, schemaSchema, serviceProviderConfigSchema } from '../../schema/builtin/index.js';
import { resolveCompatibility } from './resolve-compatibility.js';
import { CONSOLE_LOGGER, type ScimLogger } from '../observe/scim-logger.js';
import { TRACER_NAME, type TracerLike } from '../observe/scim-tracing.js';
import type { TenantConfig } from '../tenancy/tenancy-options.js';
import { TenantContexts } from '../tenancy/tenant-contexts.js';
import { compileTenantPath, type TenantPath } from '../tenancy/tenant-path.js';
import { KeyedMutex } from '../write/keyed-mutex.js';
import { ServerCaches } from './server-caches.js';
import { resolveMembership, type Membership } from '../membership/membership.js';
import { PAGINATION_ATTRIBUTE } from '../query/paging/pagination-attribute.js';
import { resolvePagination, type PaginationSettings } from '../query/paging/pagination-settings.js';
import {
  ALL_OPERATIONS,
  type BulkOptions,
  type CompatibilityOptions,
  type ScimOperation,
  type ScimServerConfig,
  type RecentVersionsOptions,
  type ScimServerLimits,
} from './scim-server-config.js';
import type { RecentVersionsLimits } from '../write/recent-versions.js';

/** A resource type as the pipeline serves it. */
export interface ServedType {
  readonly model: ResourceModel;
  readonly operations: ReadonlySet<ScimOperation>;
  readonly rootSearch: boolean;
  /** Endpoint segments lower-cased, for case-insensitive routing: `/Users` → `['users']`. */
  readonly segments: readonly string[];
}

/** The resolved configuration every stage reads. One per server; nothing in it is shared. */
export interface ServerContext {
  readonly config: ScimServerConfig;
  readonly registry: SchemaRegistry;
  readonly store: ScimStore;
  readonly types: readonly ServedType[];
  readonly limits: Required<ScimServerLimits>;
  readonly filterLimits: FilterLimits;
  readonly compatibility: Required<CompatibilityOptions>;
  readonly logger: ScimLogger;
  /** Serializes writes to one resource within this server, all tenants included (see KeyedMutex). */
  readonly writes: KeyedMutex;
  /** What this server derives from stored versions and keeps, with its one after-write call (see ServerCaches). */
  readonly caches: ServerCaches;
  /** The compiled `tenancy.path`, when the URL names the tenant. */
  readonly tenantPath: TenantPath | undefined;
  /** Per-tenant contexts, when `tenancy.configure` is given. */
  readonly tenants: TenantContexts | undefined;
  /** The tracer of `config.tracing`, when tracing. */
  readonly tracer: TracerLike | undefined;
  /** `POST /Bulk` limits; undefined when Bulk is off (501). */
  readonly bulk: Required<BulkOptions> | undefined;
  /** RFC 9865 cursor paging (one signing key for the server and all its tenants); undefined when only index paging is offered. */
  readonly pagination: PaginationSettings | undefined;
  /** The RFC 7643 §7 meta-schemas `/Schemas` serves besides the resource types' ones (empty unless `discovery.metaSchemas`). */
  readonly metaSchemas: readonly SchemaDefinition[];
  /** Group membership semantics, when a type with the Group schema is served (see membership/). */
  readonly membership?: Membership;
  /** Events derived from committed writes, when `events` is on (see events/). */
  readonly events?: EventSettings;
  /** The deadline of one request's store calls together (see request/store-deadline.ts); undefined: none. */
  readonly storeDeadlineMs?: number;
}

/** Bulk limits when `bulk` is given without them. */
export const DEFAULT_BULK_MAX_OPERATIONS = 1000;

/** Default of `tenancy.cacheSize`. */
export const DEFAULT_TENANT_CACHE_SIZE = 1000;

export const DEFAULT_LIMITS: Required<ScimServerLimits> = Object.freeze({
  maxBodyBytes: 1024 * 1024,
  maxResults: 1000,
  defaultPageSize: 100,
  rootSearchMaxResults: 1000,
  maxPatchOperations: DEFAULT_PATCH_OPTIONS.maxOperations,
  maxPatchElementVisits: DEFAULT_PATCH_OPTIONS.maxElementVisits,
  maxRequestWork: 2_000_000,
  maxQueryParameters: 100,
  maxValuesPerAttribute: 200_000,
  maxResourceBytes: 32 * 1024 * 1024,
  filterMaxLength: DEFAULT_FILTER_LIMITS.maxLength,
  filterMaxDepth: DEFAULT_FILTER_LIMITS.maxDepth,
});

/** The PATCH tolerances default as the PATCH engine says (one source of truth); the filter one is off. */
export const DEFAULT_COMPATIBILITY: Required<CompatibilityOptions> = Object.freeze({
  stringBooleans: DEFAULT_PATCH_OPTIONS.stringBooleans,
  removeValueArray: DEFAULT_PATCH_OPTIONS.removeValueArray,
  pathKeysInValue: DEFAULT_PATCH_OPTIONS.pathKeysInValue,
  managerAsString: DEFAULT_PATCH_OPTIONS.managerAsString,
  createMissingValuePath: DEFAULT_PATCH_OPTIONS.createMissingValuePath,
  allowEmptyOperations: DEFAULT_PATCH_OPTIONS.allowEmptyOperations,
  unquotedFilterValues: false,
  serviceConfigurationPath: false,
  valueFilterInAttributes: false,
  omitPaginationConfig: false,
});

/** Validate and resolve a configuration. Throws a TypeError for a programmer error at start-up. */
export function createServerContext(config: ScimServerConfig): ServerContext {
  if (config === null || typeof config !== 'object') throw new TypeError('createScimServer: a configuration object is required');
  const tenancy = config.tenancy ?? {};
  const cacheSize = tenancy.cacheSize ?? DEFAULT_TENANT_CACHE_SIZE;
  if (!Number.isSafeInteger(cacheSize) || cacheSize < 1) throw new TypeError(`createScimServer: tenancy.cacheSize must be a positive integer, got ${String(cacheSize)}`);
  if (tenancy.configure !== undefined && typeof tenancy.configure !== 'function') throw new TypeError('createScimServer: tenancy.configure must be a function');
  const base = resolveContext(config, {
    writes: new KeyedMutex(),
    caches: new ServerCaches(config.store ?? {}, resolveRecentVersions(config.recentVersions)),
    tenantPath: tenancy.path === undefined ? undefined : compileTenantPath(tenancy.path),
    tenants: undefined,
    tracer: config.tracing?.trace.getTracer(TRACER_NAME),
    pagination: resolvePagination(config.pagination),
  });
  const { configure } = tenancy;
  if (configure === undefined) return base;
  const derive = (tenantConfig: TenantConfig): ServerContext => resolveContext(tenantConfigOf(config, tenantConfig), base);
  return { ...base, tenants: new TenantContexts(base, configure, derive, cacheSize) };
}

/** A tenant's configuration: the server's, with the tenant's options over it (`compatibility` option by option). */
function tenantConfigOf(config: ScimServerConfig, tenant: TenantConfig): ScimServerConfig {
  const { resourceTypes, schemas, compatibility, unknownAttributes } = tenant;
  return {
    ...config,
    ...(resourceTypes === undefined ? {} : { resourceTypes }),
    ...(schemas === undefined ? {} : { schemas }),
    ...(unknownAttributes === undefined ? {} : { unknownAttributes }),
    // The server's tolerances (its profile and options), then the tenant's profile and options over them.
    compatibility: resolveCompatibility(compatibility, resolveCompatibility(config.compatibility, DEFAULT_COMPATIBILITY)),
  };
}

/** The parts a tenant's context shares with the server's. */
type SharedParts = Pick<ServerContext, 'writes' | 'caches' | 'tenantPath' | 'tenants' | 'tracer' | 'pagination'>;

function resolveContext(config: ScimServerConfig, shared: SharedParts): ServerContext {
  if (!Array.isArray(config.resourceTypes) || config.resourceTypes.length === 0) {
    throw new TypeError('createScimServer: resourceTypes must list at least one resource type');
  }
  if (config.store === null || typeof config.store !== 'object') throw new TypeError('createScimServer: store is required');
  if (config.tenancy !== undefined && config.store.capabilities?.tenancy === 'single') {
    throw new TypeError("createScimServer: the store keeps a single tenant (capabilities.tenancy 'single'); it cannot serve a tenancy configuration");
  }
  const registry = createSchemaRegistry({
    resourceTypes: config.resourceTypes.map(({ operations: _operations, rootSearch: _rootSearch, ...definition }) => definition),
    ...(config.schemas === undefined ? {} : { schemas: config.schemas }),
  });
  const types = config.resourceTypes.map((input): ServedType => {
    const model = registry.resourceType(input.id ?? input.name);
    if (model === undefined) throw new TypeError(`createScimServer: resource type '${input.name}' was not registered`);
    const operations = new Set<ScimOperation>(input.operations ?? ALL_OPERATIONS);
    for (const operation of operations) {
      if (!ALL_OPERATIONS.includes(operation)) throw new TypeError(`createScimServer: '${input.name}' lists unknown operation '${String(operation)}'`);
    }
    const segments = model.definition.endpoint.split('/').filter((segment) => segment !== '').map((segment) => segment.toLowerCase());
    if (segments.length === 0) throw new TypeError(`createScimServer: '${input.name}' needs an endpoint such as '/Users'`);
    return { model, operations, rootSearch: input.rootSearch ?? operations.has('search'), segments };
  });
  const limits = resolveLimits(config.limits);
  checkHooks(config);
  const membership = resolveMembership(types, config.membership);
  const compatibility = resolveCompatibility(config.compatibility, DEFAULT_COMPATIBILITY);
  const events = resolveEvents(config.events, config.store.capabilities?.events === true && config.store.outbox !== undefined);
  return {
    config,
    registry,
    store: config.store,
    types,
    limits,
    filterLimits: { maxLength: limits.filterMaxLength, maxDepth: limits.filterMaxDepth },
    compatibility,
    logger: config.logger ?? CONSOLE_LOGGER,
    writes: shared.writes,
    caches: shared.caches,
    tenantPath: shared.tenantPath,
    tenants: shared.tenants,
    tracer: shared.tracer,
    pagination: shared.pagination,
    bulk: resolveBulk(config.bulk, limits),
    metaSchemas: metaSchemas(config, compatibility),
    ...(membership === undefined ? {} : { membership }),
    ...(events === undefined ? {} : { events }),
    ...storeDeadline(config),
  };
}

/** What a store call may add to its own timeout before the request's deadline passes (see ScimServerConfig.storeDeadlineMs). */
export const STORE_DEADLINE_MARGIN_MS = 500;

function storeDeadline(config: ScimServerConfig): { storeDeadlineMs?: number } {
  const given = config.storeDeadlineMs;
  if (given === false) return {};
  if (given !== undefined) {
    if (typeof given !== 'number' || !Number.isFinite(given) || given <= 0) throw new TypeError(`createScimServer: storeDeadlineMs must be a positive number of milliseconds or false, got ${String(given)}`);
    return { storeDeadlineMs: given };
  }
  const call = config.store.capabilities?.callTimeoutMs;
  return typeof call === 'number' && Number.isFinite(call) && call > 0 ? { storeDeadlineMs: call + STORE_DEADLINE_MARGIN_MS } : {};
}

function checkHooks(config: ScimServerConfig): void {
  const { notFoundDetail, membership, beforeWrite } = config;
  if (notFoundDetail !== undefined && notFoundDetail !== 'name' && notFoundDetail !== 'empty' && typeof notFoundDetail !== 'function') {
    throw new TypeError(`createScimServer: notFoundDetail must be 'name', 'empty' or a function, got ${String(notFoundDetail)}`);
  }
  if (beforeWrite !== undefined && typeof beforeWrite !== 'function') throw new TypeError('createScimServer: beforeWrite must be a function');
  if (membership !== undefined && membership !== false) {
    const dangling = membership?.danglingReferences;
    if (typeof membership !== 'object' || membership === null || (dangling !== undefined && dangling !== 'reject' && dangling !== 'accept')) {
      throw new TypeError("createScimServer: membership must be false or { danglingReferences?: 'reject' | 'accept' }");
    }
  }
}

/**
 * RFC 7643 §7 meta-schemas when `discovery.metaSchemas`; the ServiceProviderConfig one with RFC 9865
 * `pagination` when cursors are on and `omitPaginationConfig` is off.
 */
function metaSchemas(config: ScimServerConfig, compatibility: Required<CompatibilityOptions>): SchemaDefinition[] {
  if (config.discovery?.metaSchemas !== true) return [];
  const cursors = config.pagination !== undefined && config.pagination.cursor !== false && !compatibility.omitPaginationConfig;
  const providerConfig = cursors ? { ...serviceProviderConfigSchema, attributes: [...serviceProviderConfigSchema.attributes, PAGINATION_ATTRIBUTE] } : serviceProviderConfigSchema;
  return [schemaSchema, resourceTypeSchema, providerConfig].map(normalizeSchema);
}

function resolveBulk(input: BulkOptions | false | undefined, limits: Required<ScimServerLimits>): Required<BulkOptions> | undefined {
  if (input === undefined || input === false) return undefined;
  if (typeof input !== 'object' || input === null) throw new TypeError('createScimServer: bulk must be an object of limits or false');
  const bulk = { maxOperations: DEFAULT_BULK_MAX_OPERATIONS, maxPayloadSize: limits.maxBodyBytes, ...definedOnly(input) };
  for (const [name, value] of Object.entries(bulk)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`createScimServer: bulk.${name} must be a positive integer, got ${String(value)}`);
  }
  return bulk;
}

function resolveLimits(input: ScimServerLimits | undefined): Required<ScimServerLimits> {
  const limits = { ...DEFAULT_LIMITS, ...definedOnly(input ?? {}) };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < (name === 'defaultPageSize' || name === 'maxResults' ? 0 : 1)) {
      throw new TypeError(`createScimServer: limits.${name} must be a positive integer, got ${String(value)}`);
    }
  }
  return { ...limits, defaultPageSize: Math.min(limits.defaultPageSize, limits.maxResults) };
}

/** `recentVersions` with its defaults (off: 0 resources; 16 MiB once `maxEntries` is set). */
function resolveRecentVersions(input: RecentVersionsOptions | undefined): RecentVersionsLimits {
  const limits = { maxEntries: 0, maxBytes: 16 * 1024 * 1024, ...definedOnly(input ?? {}) };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`createScimServer: recentVersions.${name} must be a non-negative integer, got ${String(value)}`);
  }
  return limits;
}

function definedOnly<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** What validation needs from the configuration. */
export function validationOptions(context: ServerContext, onIgnored?: (path: string) => void): ValidationOptions {
  const options: ValidationOptions = { unknownAttributes: context.config.unknownAttributes ?? 'reject', stringBooleans: context.compatibility.stringBooleans };
  return onIgnored === undefined ? options : { ...options, onIgnored };
}

/**
 * What the PATCH engine needs from the configuration. Built field by field on every PATCH: a rest
 * and spread with keys added took V8's slow path (~3 µs, as long as applying the PATCH).
 */
export function patchOptions(context: ServerContext, onIgnored?: (path: string) => void): PatchOptions {
  const { compatibility, limits } = context;
  return {
    stringBooleans: compatibility.stringBooleans,
    removeValueArray: compatibility.removeValueArray,
    pathKeysInValue: compatibility.pathKeysInValue,
    managerAsString: compatibility.managerAsString,
    createMissingValuePath: compatibility.createMissingValuePath,
    allowEmptyOperations: compatibility.allowEmptyOperations,
    unknownAttributes: context.config.unknownAttributes ?? 'reject',
    onIgnored,
    maxOperations: limits.maxPatchOperations,
    maxElementVisits: limits.maxPatchElementVisits,
    pathLimits: context.filterLimits,
  };
}
