import type { EventOptions } from '../../events/event-options.js';
import type { ResourceTypeDefinitionInput, SchemaDefinitionInput } from '../../schema/attribute-definition.js';
import type { ScimError } from '../../errors/scim-error.js';
import type { ScimResource } from '../../schema/scim-resource.js';
import type { ScimStore } from '../../store/scim-store.js';
import type { RequestEvent, ResponseEvent } from '../observe/request-context.js';
import type { ScimLogger } from '../observe/scim-logger.js';
import type { ScimTracing } from '../observe/scim-tracing.js';
import type { TenancyOptions } from '../tenancy/tenancy-options.js';
import type { ScimRequest } from '../request/scim-request.js';
import type { RequestRecorder } from '../observe/request-recorder.js';

/** The operations a resource type may offer (RFC 7644 §3.2). Each decides an endpoint and method. */
export type ScimOperation = 'create' | 'read' | 'replace' | 'patch' | 'delete' | 'list' | 'search';

/** Every operation: the default of a resource type that does not list its own. */
export const ALL_OPERATIONS: readonly ScimOperation[] = Object.freeze(['create', 'read', 'replace', 'patch', 'delete', 'list', 'search'] as const);

/** A resource type the server serves: its RFC 7643 §6 definition plus what clients may do with it. */
export interface ResourceTypeConfig extends ResourceTypeDefinitionInput {
  /**
   * The operations clients may perform, deciding endpoints and methods:
   * `create` → `POST {endpoint}`, `list` → `GET {endpoint}`, `search` → `POST {endpoint}/.search`,
   * `read` / `replace` / `patch` / `delete` → `GET` / `PUT` / `PATCH` / `DELETE {endpoint}/{id}`.
   * Default: all of them. `[]` gives the type no endpoint at all: its schemas are still listed in
   * `/Schemas`, and its resources can still be found by the server-root search (see `rootSearch`),
   * but it is absent from `/ResourceTypes`.
   */
  readonly operations?: readonly ScimOperation[];
  /**
   * Whether the server-root `POST /.search` (RFC 7644 §3.4.3) covers this type.
   * Default: true when the type offers `search`.
   */
  readonly rootSearch?: boolean;
}

/**
 * An authentication scheme advertised in `/ServiceProviderConfig` (RFC 7643 §5,
 * `authenticationSchemes`). Advertising a scheme does not enforce it: `authenticate` does.
 */
export interface AuthenticationScheme {
  readonly type: 'oauth' | 'oauth2' | 'oauthbearertoken' | 'httpbasic' | 'httpdigest';
  readonly name: string;
  readonly description: string;
  readonly specUri?: string;
  readonly documentationUri?: string;
  readonly primary?: boolean;
}

/**
 * What `authenticate` decides. Accept with `{ ok: true, principal, tenant }` (the principal is handed
 * to the hooks; the tenant, when given, is the one every store call and hook of the request acts
 * for); refuse with `{ ok: false }`, which answers 401 with a `WWW-Authenticate` challenge, or with
 * `status: 403` for an authenticated client that may not use the service.
 */
export type AuthenticationResult =
  | {
      readonly ok: true;
      readonly principal?: unknown;
      /** The tenant the caller acts for (1–256 characters, no control characters); absent: the URL's tenant, else the default one. */
      readonly tenant?: string;
      /**
       * The OAuth scopes the credential carries (RFC 6749 §3.3), handed to `authorize`; absent for a
       * credential without scopes (a static token).
       */
      readonly scopes?: readonly string[];
    }
  | {
      readonly ok: false;
      /** 401 (default: no or bad credentials) or 403 (credentials fine, access refused). */
      readonly status?: 401 | 403;
      /** The error's `detail`; default "Authentication required" / "Access denied". */
      readonly detail?: string;
      /** `WWW-Authenticate` value for a 401; default from the primary advertised scheme (else the first): `Basic`/`Digest realm="SCIM"` for `httpbasic`/`httpdigest`, else `Bearer realm="SCIM"`. */
      readonly challenge?: string;
    };

/**
 * What an operation does, for `authorize`: `read` (GET, `.search`), `write` (POST, PUT, PATCH,
 * DELETE), `bulk` (the `POST /Bulk` request itself; each of its operations is authorized again as
 * what it does), `discovery` (`/ServiceProviderConfig`, `/Schemas`, `/ResourceTypes`).
 */
export type AccessKind = 'read' | 'write' | 'bulk' | 'discovery';

/** One operation about to run, handed to `authorize` (docs/concepts/authentication.md, "Scopes"). */
export interface AuthorizationEvent {
  readonly access: AccessKind;
  /** The endpoint's operation: `create`, `read`, `list`, `search`, `replace`, `patch`, `delete`, `rootSearch`, `bulk`, `me`, `serviceProviderConfig`, … */
  readonly operation: string;
  /** The resource type's name (`User`), for an operation on one type. */
  readonly resourceType?: string;
  /** True for an operation of a Bulk request. */
  readonly inBulk: boolean;
  readonly principal?: unknown;
  readonly tenant?: string;
  /** What `authenticate` returned as `scopes`. */
  readonly scopes?: readonly string[];
}

/**
 * What `authorize` decides: nothing (the operation runs), or a refusal answered 403 with
 * `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"` (RFC 6750 §3.1) and a SCIM error
 * body (inside a Bulk request: that operation's result).
 */
export type AuthorizationResult = void | undefined | { readonly ok: false; readonly scope: string; readonly detail?: string };

/**
 * A request before its body is read, handed to `admit`: what `authenticate` said of its headers and
 * where it is routed.
 */
export interface AdmissionEvent {
  /** The request without its body (method, path relative to the mount point, query, headers). */
  readonly request: ScimRequest;
  /** Whether `authenticate` accepted the request's credentials (if not, `handle()` answers the 401). */
  readonly authenticated: boolean;
  readonly principal?: unknown;
  readonly tenant?: string;
  readonly scopes?: readonly string[];
  /** The endpoint's operation when routed (`create`, `list`, `bulk`, …). */
  readonly operation?: string;
  readonly resourceType?: string;
}

/**
 * What `admit` decides: nothing (the body is read and the request handled) or a refusal answered as
 * is, with its headers (a 429 with `Retry-After`, a 503).
 */
export type AdmissionResult = void | undefined | { readonly status: number; readonly detail: string; readonly headers?: Readonly<Record<string, string>> };

/** An attribute a request sent that no served schema declares, dropped under `unknownAttributes: 'ignore'`. */
export interface IgnoredAttributeReport {
  readonly resourceType: string;
  /** As the request spelled it: `nickName`, `name.middleName`, a PATCH path. */
  readonly path: string;
  readonly operation: 'create' | 'replace' | 'patch';
  /** The resource's id (for a create, the id it is created with). */
  readonly id: string;
  readonly tenant?: string;
  readonly requestId: string;
}

/** A committed change, reported to `onChange` after the store accepted it. */
export interface ChangeEvent {
  readonly operation: 'create' | 'replace' | 'patch' | 'delete';
  /** Resource type name, e.g. `User`. */
  readonly resourceType: string;
  readonly id: string;
  /** The stored resource before the change (absent on create). */
  readonly before?: ScimResource;
  /** The stored resource after the change (absent on delete). */
  readonly after?: ScimResource;
  /** What `authenticate` returned as principal, if anything. */
  readonly principal?: unknown;
  /** The tenant the change happened in; absent for the default tenant. */
  readonly tenant?: string;
  /** The id of the request that made the change. */
  readonly requestId: string;
}

/**
 * A write about to be committed, handed to `beforeWrite`: it passed validation (and, for a group,
 * membership resolution), and nothing is stored yet.
 */
export interface BeforeWriteEvent {
  readonly operation: 'create' | 'replace' | 'patch' | 'delete';
  /** Resource type name, e.g. `Group`. */
  readonly resourceType: string;
  /** The resource's id (on create: the id it is about to get). */
  readonly id: string;
  /** The resource as it would be stored, `meta` included (absent on delete). */
  readonly resource?: ScimResource;
  /** The stored resource the write changes (absent on create). */
  readonly existing?: ScimResource;
  /** What `authenticate` returned as principal, if anything. */
  readonly principal?: unknown;
  /** The tenant the write happens in; absent for the default tenant. */
  readonly tenant?: string;
  /** The id of the request that makes the write. */
  readonly requestId: string;
}

/** What `beforeWrite` decides: nothing (the write goes ahead) or a SCIM error returned to the client as is. */
export type BeforeWriteResult = void | undefined | ScimError;

/** Membership semantics of the Group resource type (docs/concepts/groups-and-membership.md). */
export interface MembershipOptions {
  /**
   * A `members[].value` that is the id of no served User or Group: `reject` answers 400
   * invalidValue naming it (default); `accept` stores it as sent, for clients that provision
   * groups before their members.
   */
  readonly danglingReferences?: 'reject' | 'accept';
}

/**
 * The `detail` of the 404 for an unknown resource id: `name` says which (`Resource 2819c223 not
 * found`, RFC 7644 §3.12); `empty` is `""`; a function writes its own.
 */
export type NotFoundDetail = 'name' | 'empty' | ((resourceType: string, id: string) => string);

/** `recentVersions`: the bounds of what a server keeps of recently seen resources. */
export interface RecentVersionsOptions {
  /** Most resources kept. Default 0: none (off); 10,000, say, turns it on. */
  readonly maxEntries?: number;
  /** Most bytes of their JSON (estimated). Default 16 MiB; a resource over a sixteenth of it, or over 64 KiB, is not kept. */
  readonly maxBytes?: number;
}

/** Numeric limits. Every one has a safe default. */
export interface ScimServerLimits {
  /**
   * Largest accepted request body in bytes; larger bodies are answered 413 (RFC 7644 §3.7.4).
   * Advertised as `bulk.maxPayloadSize`. Default 1 MiB (1,048,576).
   */
  readonly maxBodyBytes?: number;
  /**
   * Most resources one list or search response returns (`filter.maxResults`, RFC 7643 §5): a larger
   * `count` is capped silently. Default 1000.
   */
  readonly maxResults?: number;
  /** Page size when a list or search request gives no `count` (RFC 7644 §3.4.2.4). Default 100, capped by `maxResults`. */
  readonly defaultPageSize?: number;
  /**
   * Most matches a server-root `POST /.search` may have before it is refused with 400 `tooMany`
   * (RFC 7644 §3.4.2.1). Default 1000.
   */
  readonly rootSearchMaxResults?: number;
  /** Most operations in one PATCH request; more is 400 invalidValue. Default 1000. */
  readonly maxPatchOperations?: number;
  /**
   * Most element visits one PATCH request may make over all its operations: elements examined by
   * value filters (`emails[type eq "work"]`) and linear scans, 1 per value an `add` appends, 8 per
   * element an operation selects; adding or removing values by `value` (group members) is indexed
   * and counts 1 per 4 elements.
   * More is 400 invalidValue, nothing written. Default 5,000,000.
   */
  readonly maxPatchElementVisits?: number;
  /**
   * Most units of work one list or search request may make the server do in memory: each value a
   * filter term visits (a term on a multi-valued attribute visits each of its elements), each
   * comparison of a sort, each value a response presents (1 per resource, plus each element of its
   * multi-valued attributes). More is 400 tooMany naming this limit, refused as soon as it is
   * exceeded. Default 2,000,000: a full scan of 1,000,000 users with a one-term filter fits; so does
   * a page holding 2,000,000 group members (about 360 MB of JSON).
   */
  readonly maxRequestWork?: number;
  /**
   * Most query parameters one request may carry, repeats counted; more is 400 invalidValue.
   * Default 100 (SCIM itself defines seven).
   */
  readonly maxQueryParameters?: number;
  /**
   * Most values one multi-valued attribute of a resource may hold (at any depth); a create, replace
   * or patch that would store more is 400 invalidValue naming the attribute and this limit.
   * Default 200,000: twice a 100,000-member group.
   */
  readonly maxValuesPerAttribute?: number;
  /**
   * Largest a stored resource may be, in bytes of its JSON (UTF-8, as stored: without
   * `meta.location`); a create, replace or patch that would store more is 400 invalidValue naming
   * this limit. Default 33,554,432 (32 MiB): a 100,000-member group with `value`, `$ref`, `display`
   * and `type` on every member takes about 20 MB.
   */
  readonly maxResourceBytes?: number;
  /** Longest accepted `filter` expression, in characters. Default 10,000. */
  readonly filterMaxLength?: number;
  /** Deepest accepted nesting of `and`/`or`/`not`/parentheses in a filter. Default 50. */
  readonly filterMaxDepth?: number;
}

/**
 * Tolerances for real clients that bend RFC 7643/7644 (Microsoft Entra ID, Okta), each named after
 * the shape it accepts. They are handed to validation and to the PATCH engine (see `PatchOptions`).
 */
export interface CompatibilityOptions {
  /** Accept `"True"` / `"False"` (any case) for boolean attributes (Entra ID). Default true. */
  readonly stringBooleans?: boolean;
  /** PATCH `remove` with a `value` array on a multi-valued attribute removes those values (Entra ID group members). Default true. */
  readonly removeValueArray?: boolean;
  /** Path-less PATCH `add`/`replace` whose value keys are attribute paths or URN-qualified names (Entra ID). Default true. */
  readonly pathKeysInValue?: boolean;
  /** A bare string for a complex attribute with a `value` sub-attribute means `{"value": …}` (Entra ID `manager`). Default true. */
  readonly managerAsString?: boolean;
  /** PATCH `replace` on `emails[type eq "work"].value` creates the value when none matches, as `add` always does. Default false (RFC: noTarget). */
  readonly createMissingValuePath?: boolean;
  /** Accept a PATCH with an empty `Operations` array as a no-op (the Microsoft validator). Default false (RFC: at least one). */
  readonly allowEmptyOperations?: boolean;
  /**
   * Accept bare filter values such as `userName sw O` or `meta.created gt 2024-01-01T00:00:00Z`
   * (the Microsoft SCIM validator), read as the JSON value they spell or else as a string.
   * Default false (RFC 7644 §3.4.2.2: a compValue is JSON, so strings are quoted).
   */
  readonly unquotedFilterValues?: boolean;
  /**
   * Also serve `/ServiceProviderConfig` at `/serviceConfiguration`, its pre-RFC draft name (the
   * Microsoft SCIM validator). Default false (RFC 7644 §4 names only `/ServiceProviderConfig`).
   */
  readonly serviceConfigurationPath?: boolean;
  /**
   * Read a value filter in `attributes`/`excludedAttributes` (`emails[type eq "work"]`, the Microsoft
   * SCIM validator) as the attribute it filters (`emails`). Default false (RFC 7644 §3.4.2.5: the
   * parameters list attribute names, so the request is 400 invalidPath).
   */
  readonly valueFilterInAttributes?: boolean;
  /**
   * Leave RFC 9865's `pagination` object out of `/ServiceProviderConfig` (and out of its meta-schema
   * in `/Schemas`), for clients that check the document against the schema of RFC 7643 §5 alone and
   * refuse what it does not list (Python's scim2-models 0.6, under scim2-client). Cursor paging itself
   * keeps working for clients that ask for it. Default false (RFC 9865 §4 advertises it).
   */
  readonly omitPaginationConfig?: boolean;
}

/**
 * Named sets of tolerances, one per client (see docs/concepts/compatibility.md): `strict` turns every
 * tolerance off (the RFC answer everywhere), `entra` is what Microsoft Entra ID and its SCIM validator
 * need, `okta` what Okta needs. A profile object names one and overrides single options.
 */
export type CompatibilityProfile = 'strict' | 'entra' | 'okta';

/** `compatibility`: a profile name, or options (optionally starting from a profile). */
export type CompatibilityConfig = CompatibilityProfile | (CompatibilityOptions & { readonly profile?: CompatibilityProfile });

/** RFC 7644 §3.7 Bulk. Both limits are enforced (413) and advertised in `/ServiceProviderConfig`. */
export interface BulkOptions {
  /** Most operations in one BulkRequest; more is 413. Default 1000. */
  readonly maxOperations?: number;
  /**
   * Largest BulkRequest body in bytes; larger is 413. Default `limits.maxBodyBytes`. An adapter's
   * own body limit (`maxBodyBytes` of the adapter) must be at least this large.
   */
  readonly maxPayloadSize?: number;
}

/** Which resource `/Me` (RFC 7644 §3.11) stands for: a resource type name (`User`) and an id. */
export interface MeTarget {
  readonly resourceType: string;
  readonly id: string;
}

/** RFC 9865 cursor paging, next to RFC 7644 index paging. Advertised as `pagination` in `/ServiceProviderConfig`. */
export interface PaginationOptions {
  /** Offer cursor paging (`cursor` parameter, `nextCursor`/`previousCursor`). Default true when `pagination` is given. */
  readonly cursor?: boolean;
  /** The method of a request that names neither `cursor` nor `startIndex`. Default `index` (RFC 9865 §2.4). */
  readonly defaultPaginationMethod?: 'index' | 'cursor';
  /** Seconds a cursor stays valid; an older one is 400 `expiredCursor`. Default 3600. */
  readonly cursorTimeout?: number;
  /**
   * Secret that signs cursors (HMAC-SHA-256), at least 32 characters. Give the same one to every
   * instance behind a load balancer so that any instance accepts any instance's cursors. Default: a
   * random key per server, so cursors do not survive a restart.
   */
  readonly cursorSecret?: string;
}

/** What `/Schemas` and `/ServiceProviderConfig` serve beyond the resource types' schemas. */
export interface DiscoveryOptions {
  /**
   * Also list the RFC 7643 §7 meta-schemas (Schema, ResourceType, ServiceProviderConfig) in
   * `/Schemas`, as RFC 7643 §8.7.2 shows them. Default false.
   */
  readonly metaSchemas?: boolean;
}

/** Everything `createScimServer()` needs. Only `resourceTypes` and `store` are required. */
export interface ScimServerConfig {
  /**
   * The resource types served, e.g. `[{ ...userResourceType }]`, each with the operations it
   * offers. Their schemas (built-in User, Group and Enterprise User, or `schemas`) make `/Schemas`.
   */
  readonly resourceTypes: readonly ResourceTypeConfig[];
  /** Custom schemas and extensions, or replacements of a built-in schema (same `id`). */
  readonly schemas?: readonly SchemaDefinitionInput[];
  /** Where resources live. `createMemoryStore()` for tests and small services. */
  readonly store: ScimStore;
  /**
   * Absolute URL of the SCIM mount point, e.g. `https://idp.example.com/scim/v2`, for
   * `meta.location` and `Location`. A request's own `baseUrl` (set by the adapter) wins; without
   * either, `http://{Host header}` is used.
   */
  readonly baseUrl?: string;
  /**
   * Decides who may call the service; runs first, for every path (known or not) and before the body
   * is read, so an unauthenticated client learns nothing of the routes: a refusal is a 401 even
   * where routing would answer 404, 405 or 501. Let `/ServiceProviderConfig` through to keep it
   * public (RFC 7643 §5). Without it the server is open to anyone who can reach it. A throw is a 500.
   */
  readonly authenticate?: (request: ScimRequest) => AuthenticationResult | Promise<AuthenticationResult>;
  /**
   * Decides whether the authenticated caller may run one operation (its scopes, per resource type);
   * runs after routing for every request, and again for each operation of a Bulk request and for
   * the resource `/Me` stands for. A refusal is a 403 `insufficient_scope` (RFC 6750 §3.1). Without
   * it every authenticated caller may do everything. A throw is a 500.
   */
  readonly authorize?: (event: AuthorizationEvent) => AuthorizationResult | Promise<AuthorizationResult>;
  /**
   * Runs before the request body is read and before any store call (a rate limit): the adapters
   * call `ScimServer.admit()` first and read the body only when it lets the request through. A
   * refusal is answered as is. A throw is a 500. Code calling `handle()` directly calls `admit()` itself.
   */
  readonly admit?: (event: AdmissionEvent) => AdmissionResult | Promise<AdmissionResult>;
  /** Schemes advertised in `/ServiceProviderConfig` (`authenticationSchemes`). Default none. */
  readonly authenticationSchemes?: readonly AuthenticationScheme[];
  /**
   * Called after every committed create, replace, patch and delete, and awaited before the response
   * is sent. A throw or rejection is reported to `logger` and does not change the response.
   */
  readonly onChange?: (event: ChangeEvent) => void | Promise<void>;
  /**
   * Called for every create, replace, patch and delete after validation and just before the store
   * write (inside the retry loop of an update: it may run again with the re-read resource). Return
   * or throw (as a `ScimException`) a SCIM error to refuse the write: the client gets that error
   * as is and nothing is stored. Any other throw is a 500, reported to `logger`.
   */
  readonly beforeWrite?: (event: BeforeWriteEvent) => BeforeWriteResult | Promise<BeforeWriteResult>;
  /**
   * Derive provisioning events (`user.created`, `group.members_added`…) from every committed write
   * and have the store keep them in its outbox in the write's own transaction, for
   * `@scimkit/events` to deliver (docs/concepts/events.md). Needs a store with
   * `capabilities.events`. Off by default.
   */
  readonly events?: EventOptions | false;
  /**
   * Group membership semantics, on when a type with the Group schema is served (members resolved
   * and checked, `User.groups` computed, references removed on delete). `false` turns them off:
   * members are stored as sent. Default `{ danglingReferences: 'reject' }`.
   */
  readonly membership?: MembershipOptions | false;
  /** The `detail` of a 404 for an unknown resource id. Default `name`. */
  readonly notFoundDetail?: NotFoundDetail;
  /**
   * Called once a request is routed and authenticated, before it runs, with who calls (principal,
   * tenant), the request id and the endpoint. Awaited; a throw or rejection is reported to `logger`
   * and does not change the response.
   */
  readonly onRequest?: (event: RequestEvent) => void | Promise<void>;
  /**
   * Called for every answered request, refused ones included, with its status and duration.
   * Awaited before the response is returned; a throw or rejection is reported to `logger` and
   * does not change the response.
   */
  readonly onResponse?: (event: ResponseEvent) => void | Promise<void>;
  /**
   * The request log (docs/concepts/console.md): called at the end of every answered request with
   * the request, its answer and the changes it made, e.g. `createRequestLog()` of
   * `@scimkit/console`. It redacts and stores off the request path; a throw is reported to
   * `logger` and never changes the response. Absent: nothing is recorded.
   */
  readonly requestLog?: RequestRecorder;
  /**
   * Receives structured records: one `info` record per answered request and an `error` record for
   * every unexpected failure (the client only sees a generic 500). Default: `warn` and `error`
   * records to `console.error`.
   */
  readonly logger?: ScimLogger;
  /**
   * Serve many tenants from one server: where a request's tenant comes from besides `authenticate`,
   * and per-tenant configuration. See `TenancyOptions`.
   */
  readonly tenancy?: TenancyOptions;
  /**
   * OpenTelemetry: a span per request and per store call, through the application's own
   * `@opentelemetry/api` (`{ trace, context }`). Absent: nothing is traced.
   */
  readonly tracing?: ScimTracing;
  /**
   * One deadline for all the store calls of a request, in milliseconds (each Bulk operation gets
   * its own): a call that would end past it fails as unavailable (503 with `Retry-After`), and once
   * a call of the request finds the store unavailable the request's later calls fail at once instead
   * of each waiting its own timeout. Default: the store's `capabilities.callTimeoutMs` plus 500 ms,
   * so that a request making several calls (a PATCH with members, a cascading delete) waits no
   * longer than one call may; none when the store declares none (the memory store). `false` turns
   * it off (docs/operations/database-failures.md, "Bounds").
   */
  readonly storeDeadlineMs?: number | false;
  readonly limits?: ScimServerLimits;
  /**
   * How much the server keeps of the last stored version of recently read or written resources, the
   * base a PUT or PATCH starts from without reading the store: it writes with one compare-and-swap,
   * and reads only when the swap misses (another instance wrote) or the write does not go through
   * (docs/architecture.md, "Server caches"). Off by default (`maxEntries: 0`: reads before every
   * write), because keeping them costs every read CPU (docs/performance.md); `maxBytes` defaults to 16 MiB. Nothing is kept for a store that owns ids or versions.
   */
  readonly recentVersions?: RecentVersionsOptions;
  /**
   * Tolerances for real clients: a profile (`'entra'`, `'okta'`, `'strict'`), options, or both
   * (`{ profile: 'entra', unquotedFilterValues: false }`: the options override the profile).
   */
  readonly compatibility?: CompatibilityConfig;
  /**
   * `POST /Bulk` (RFC 7644 §3.7): `{}` or limits to offer it, `false` (default) to answer 501.
   * Each operation runs exactly as its single request would (validation, preconditions, hooks).
   */
  readonly bulk?: BulkOptions | false;
  /**
   * `/Me` (RFC 7644 §3.11): the resource the authenticated principal (what `authenticate` returned)
   * stands for, or undefined when it stands for none (404). Without it `/Me` answers 501.
   */
  readonly me?: (principal: unknown, request: ScimRequest) => MeTarget | undefined | Promise<MeTarget | undefined>;
  /** RFC 9865 cursor paging: `{}` offers it with the defaults; absent, lists page by index only. */
  readonly pagination?: PaginationOptions;
  readonly discovery?: DiscoveryOptions;
  /**
   * What a successful PATCH answers (RFC 7644 §3.5.2): `resource` (default) 200 with the resource;
   * `noContent` 204 without a body (with `ETag`). Whatever this says, a request with the header
   * `Prefer: return=minimal` (RFC 7240 §4.2) gets the 204, and `Prefer: return=representation` the 200.
   */
  readonly patchResponse?: 'resource' | 'noContent';
  /**
   * Attributes a request body sends that no schema of the type declares: `reject` answers
   * 400 invalidValue naming the attribute (default); `ignore` drops them, never silently: each
   * dropped attribute is a `warn` record to `logger` and a call of `onIgnoredAttribute`.
   */
  readonly unknownAttributes?: 'reject' | 'ignore';
  /**
   * Under `unknownAttributes: 'ignore'`: called for each attribute a create, replace or patch drops
   * because no served schema declares it (a store over fewer attributes, docs/stores/own-tables.md).
   * A throw is reported to `logger` and changes nothing.
   */
  readonly onIgnoredAttribute?: (ignored: IgnoredAttributeReport) => void;
  /** `documentationUri` of `/ServiceProviderConfig`. */
  readonly documentationUri?: string;
}
