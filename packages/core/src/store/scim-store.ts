import type { AttrPath, Filter } from '../filter/ast.js';
import type { AttributeType } from '../schema/attribute-definition.js';
import type { ScimMeta, ScimResource } from '../schema/scim-resource.js';
import type { EventOutbox } from '../events/event-outbox.js';
import type { ScimEvent } from '../events/scim-event.js';

/**
 * The storage contract. A store keeps resources in their SCIM JSON form, losslessly: `get` returns
 * the JSON value `create` or `replace` received, unknown data, unicode and numbers included. The
 * value, not its spelling: JSON objects are unordered (RFC 8259 §4), so key order may change, and so
 * may a number's spelling (`1.0` as `1`, `1e2` as `100`) as long as it reads back as the same number;
 * the core presents every resource in schema order itself. The core assigns `id`, `meta.created`, `meta.lastModified` and `meta.version`; the store
 * compares versions atomically and enforces uniqueness atomically.
 *
 * Expected outcomes (not found, version mismatch, uniqueness) are returned as data; a store
 * throws only for real failures, which the server answers with a 500 and reports to its logger.
 *
 * A store may return frozen objects (the memory store returns its own deep-frozen resources without
 * copying); the core never mutates what a store returns. A store keeps a copy of a `resource`
 * argument (or its serialization), never the caller's object.
 */
export interface ScimStore {
  /** What the store evaluates itself; the core does the rest in memory. */
  readonly capabilities?: StoreCapabilities;
  create(resourceType: string, resource: ScimResource, ctx: WriteContext): Promise<StoreWriteResult>;
  /** The resource, or undefined when the tenant has none with this id. */
  get(resourceType: string, id: string, ctx?: StoreContext): Promise<ScimResource | undefined>;
  /**
   * Replace `id` if its current `meta.version` equals `expectedVersion` (compare-and-swap).
   * `ctx.changes`, when present, says element by element what changed in multi-valued attributes.
   */
  replace(resourceType: string, id: string, resource: ScimResource, expectedVersion: string, ctx: WriteContext): Promise<StoreWriteResult>;
  /**
   * Delete `id`; when `expectedVersion` is given, only if it is the current `meta.version`. With
   * `ctx.references` (and `capabilities.references`), also remove the elements that reference `id`
   * in the same atomic step.
   */
  delete(resourceType: string, id: string, expectedVersion?: string, ctx?: DeleteContext): Promise<StoreDeleteResult>;
  query(resourceType: string, query: StoreQuery, ctx?: StoreContext): Promise<StoreQueryResult>;
  /**
   * Optional: a PATCH the core decided without the stored document (RFC 7644 §3.5.2), applied in one
   * atomic step: set each of `assignment.values`, and only if that changes the resource, advance
   * `meta.version` (a counter `W/"n"` becomes `W/"n+1"`: `nextCounterVersion`) and set
   * `meta.lastModified` to `assignment.lastModified`; honour `expectedVersion` (`If-Match`) in the
   * same step. Returns the resource as stored after the step (`changed: false`: the resource already
   * held every value, nothing was written, version and lastModified kept), or `notFound`,
   * `versionMismatch` (checked before `changed`), or `declined`: the store did not write, and the
   * core reads the resource and writes with `replace` instead. A version that is not a counter
   * becomes `assignment.freshVersion`. A store declines whatever it cannot do exactly (a result
   * that may be larger than `assignment.maxResourceBytes`, a value it cannot keep). Only for stores whose resources are in
   * the form the core writes them (schema-spelled keys). See docs/writing-a-store.md "Assignments".
   */
  assign?(resourceType: string, id: string, assignment: StoreAssignment, ctx: StoreContext): Promise<StoreAssignResult>;
  /**
   * Optional: for a page of resources, the resources that reference each of them through
   * `lookup.attribute` (the groups whose `members` hold each user of a page, for the computed
   * `User.groups` of RFC 7643 §4.1.2), in one call. `resources` are objects this store returned (from
   * `get`, `query`, `create`, `replace` or an earlier `referrers`): a store that read the answer along
   * with them (because the call that returned them had `ctx.referrers`) may answer from that without a
   * statement, and one that knows nothing can reference them (no member rows in the tenant) may
   * answer `[]` at once. Without this method the core asks `query(lookup.resourceType,
   * members.value eq "<id>")` once per resource. See docs/writing-a-store.md "Referrers".
   */
  referrers?(lookup: ReferenceLookup, resources: readonly ScimResource[], ctx?: StoreContext): Promise<readonly Referral[]>;
  /**
   * The read side of the events this store writes with its writes (`capabilities.events`), for a
   * dispatcher (`@scimkit/events`). See docs/writing-a-store.md.
   */
  readonly outbox?: EventOutbox;
}

/**
 * A `referrers` lookup: the resources of `resourceType` with an element of `attribute` whose `value`
 * equals the id of a given resource, compared as `attribute.value eq "<id>"` compares (`caseExact`
 * from the schema: when false, NFC and lower-cased, as `uniqueKey`); only string values match.
 */
export interface ReferenceLookup extends ReferenceAttribute {
  /** The schema's `caseExact` of `attribute.value`. */
  readonly caseExact: boolean;
}

/** One reference found by `referrers`: `referrer` holds `id` in the lookup's attribute. */
export interface Referral {
  /** The id of one of the given resources, as given. */
  readonly id: string;
  /**
   * The referencing resource. Its `attribute` may be left out or incomplete (a group of 100,000 members
   * need not be read): the core reads its `id`, `displayName` and `userName`, and may pass it back to
   * `referrers` (nested groups).
   */
  readonly referrer: ScimResource;
}

/**
 * Who a store call acts for. The core passes one to every call; a store called without one (a test,
 * a script) acts for the default tenant.
 */
export interface StoreContext {
  /**
   * The tenant the request acts for, in a multi-tenant server; undefined for the default (single)
   * tenant. Tenants never see each other's resources: a store keys ids, uniqueness, queries and
   * references by tenant.
   */
  readonly tenant?: string;
  /** The request's id (from `X-Request-Id`/`traceparent`, or generated), for logs and traces. */
  readonly requestId?: string;
  /**
   * On `get`, `query`, `create` and `replace`: the core will next call `referrers(referrers, …)` with
   * the resources this call returns (the response shows `User.groups`). A store with `referrers` may
   * read that answer in the same statement and keep it with the returned objects; any store may
   * ignore this.
   */
  readonly referrers?: ReferenceLookup;
}

/** Attributes whose values must be unique within the resource type, from the schema's `uniqueness`. */
export interface UniqueAttribute {
  /** Top-level attribute name in the schema's spelling (`userName`), or `urn:…:attr` for extensions. */
  readonly path: string;
  readonly caseExact: boolean;
}

export interface WriteContext extends StoreContext {
  readonly unique: readonly UniqueAttribute[];
  /**
   * On `replace` after a PATCH: what the write changes in multi-valued attributes, element by
   * element. For every attribute listed, `resource[attribute]` equals the stored elements minus
   * `removed` plus `added`, so a store may apply the change (one row per group member) instead of
   * rewriting the attribute; a store may also ignore it and store `resource` whole. Absent when the
   * core does not know the change (a PUT), or for attributes not listed.
   */
  readonly changes?: readonly MultiValuedChange[];
  /**
   * With `capabilities.events`, when the server derives events: called with the resource as
   * written, inside the write's atomic step (or just before it, for the step to carry them); the
   * store keeps the events it returns in its outbox in that same step (transaction), so a write is
   * stored with its events or not at all. A refused write keeps none.
   */
  readonly events?: (written: ScimResource) => readonly ScimEvent[];
}

/** A value `assign` sets: the value of a singular simple attribute or sub-attribute, as validated. */
export type AssignedValue = string | number | boolean;

/**
 * What one `assign` sets. `values` maps a top-level attribute (schema spelling, core schema only) to
 * its new value, or a singular complex attribute to the sub-attributes to set in it (the others are
 * kept; the object is created when the resource has none): `{ displayName: 'x', name: { givenName:
 * 'y' } }`. Never a multi-valued, unique, readOnly or immutable attribute: the core sends only
 * what it decided without the stored document.
 */
export interface StoreAssignment {
  readonly values: Readonly<Record<string, AssignedValue | Readonly<Record<string, AssignedValue>>>>;
  /** `If-Match`: write only if the current `meta.version` equals it, else `versionMismatch`. */
  readonly expectedVersion?: string;
  /** The new `meta.lastModified` when the resource changes. */
  readonly lastModified: string;
  /**
   * The new `meta.version` when the resource changes and its version is not a counter
   * (nextCounterVersion is undefined: imported data): a fresh sequence, as the core's own writes start.
   */
  readonly freshVersion: string;
  /**
   * The server's `limits.maxResourceBytes`: a store writes only when the result's JSON (compact,
   * UTF-8) is surely no longer; when it cannot tell, it declines, and the core measures exactly.
   */
  readonly maxResourceBytes: number;
  /**
   * The core needs the resource as it was before the step (a request log's diff): the result then
   * carries `previous` (StoreAssignPrevious), read in the same atomic step. Absent: the store need
   * not read it.
   */
  readonly wantPrevious?: boolean;
}

/**
 * What the assigned attributes held before an `assign` step, asked for by `wantPrevious`: for each
 * top-level key of `values`, and for `meta`, the whole value the resource held (a complex
 * attribute's whole object, its sub-attributes not assigned included); a key is absent when the
 * resource had no such attribute. The resource returned with these put back (an absent one removed)
 * is exactly the resource as stored before the step.
 */
export type StoreAssignPrevious = Readonly<Record<string, unknown>>;

/** What `assign` did (see ScimStore.assign). `previous` is present when `wantPrevious` asked for it. */
export type StoreAssignResult =
  | { readonly ok: true; readonly resource: ScimResource; readonly changed: boolean; readonly previous?: StoreAssignPrevious }
  | { readonly ok: false; readonly reason: 'notFound' | 'versionMismatch' | 'declined' };

/** The difference one write makes to one multi-valued attribute. */
export interface MultiValuedChange {
  /** Top-level attribute in the schema's spelling (`members`), or `urn:…:attr` for an extension attribute. */
  readonly attribute: string;
  /** Elements the write adds, as they will be stored. */
  readonly added: readonly Readonly<Record<string, unknown>>[];
  /** Elements the write removes, as they were stored. */
  readonly removed: readonly Readonly<Record<string, unknown>>[];
}

/**
 * A multi-valued attribute of a resource type whose elements reference other resources by their
 * `value` sub-attribute (`Group.members`). Deleting a resource removes the elements that reference it.
 */
export interface ReferenceAttribute {
  /** The resource type that holds the attribute (`Group`). */
  readonly resourceType: string;
  /** Top-level attribute in the schema's spelling (`members`). */
  readonly attribute: string;
}

export interface DeleteContext extends StoreContext {
  /**
   * Attributes whose elements may reference the deleted resource by `value`. A store whose
   * `capabilities.references` is true removes those elements in the same atomic step as the delete,
   * gives every resource it so changes the `meta` that `touch` returns, and reports them in
   * `cascaded`. Otherwise the core removes the references itself after the delete.
   */
  readonly references?: readonly ReferenceAttribute[];
  /** The `meta` (new version and lastModified) of a resource the cascade changes. */
  readonly touch?: (resource: ScimResource) => ScimMeta;
  /**
   * With `capabilities.events`: called once the delete succeeded, with the changes of the
   * reference cascade (none when the store does not cascade), inside the delete's atomic step; the
   * store keeps the returned events in its outbox in that step.
   */
  readonly events?: (cascaded: readonly CascadedChange[]) => readonly ScimEvent[];
}

/** A resource that a delete changed by removing references to the deleted one. */
export interface CascadedChange {
  readonly resourceType: string;
  readonly before: ScimResource;
  readonly after: ScimResource;
}

/**
 * What `create` and `replace` did. `invalidValue`: the store cannot keep a value of the resource, a
 * limit of its own rather than of SCIM (PostgreSQL `jsonb` cannot hold U+0000 in a string); nothing
 * was written, and the server answers 400 `invalidValue` with `detail`, which should say what the
 * value is and why, without echoing it whole.
 */
export type StoreWriteResult =
  | { readonly ok: true; readonly resource: ScimResource }
  | { readonly ok: false; readonly reason: 'notFound' | 'versionMismatch' }
  | { readonly ok: false; readonly reason: 'uniqueness'; readonly attribute: string }
  | { readonly ok: false; readonly reason: 'invalidValue'; readonly detail: string };

export type StoreDeleteResult =
  | { readonly ok: true; readonly cascaded?: readonly CascadedChange[] }
  | { readonly ok: false; readonly reason: 'notFound' | 'versionMismatch' };

export interface SortSpec {
  readonly path: AttrPath;
  readonly order: 'ascending' | 'descending';
}

/**
 * A query handed to the store. Only the parts the store declared it can push down are present:
 * the core strips `filter` when `capabilities.filter` refuses it, and asks for a page only when
 * the store also evaluated the filter and the sort.
 */
export interface StoreQuery {
  readonly filter?: Filter;
  /** Schema knowledge the store needs to evaluate a pushed-down filter or sort per RFC rules. */
  readonly semantics: FilterSemantics;
  readonly sort?: SortSpec;
  /** 1-based, present only when the store pages. */
  readonly startIndex?: number;
  /** Page size, present only when the store pages. */
  readonly count?: number;
  /**
   * Keyset paging (RFC 9865), present only when the store declared `capabilities.cursor` and also
   * filters and sorts: `''` asks for the first page, anything else is a value this store returned
   * as `nextCursor` or `previousCursor` for the same tenant, filter and sort. Comes with `count`,
   * never with `startIndex`. The page after a cursor is stable under concurrent inserts and deletes:
   * it starts after the cursor's sort key and tie-breaker (id, or an insertion sequence), whether or
   * not that resource still exists. Without `sort`, the order is any stable order the store keeps.
   *
   * A store receives only cursors it produced: the core wraps every cursor it hands a client (signed,
   * bound to the tenant and the query) and answers a forged, altered, expired or foreign one with
   * 400 invalidCursor without calling the store. So a store does not validate cursors; one it cannot
   * decode (possible only if the store changed its cursor format between versions) it reads as the
   * first page, and it never throws for one.
   */
  readonly cursor?: string;
}

export interface StoreQueryResult {
  /** Matching resources before paging. */
  readonly totalResults: number;
  /**
   * The store accepted the filter (`capabilities.filter`) but will not finish it: evaluating it would
   * read more than the store allows itself (an attribute it cannot translate, over more rows than its
   * bound). The server answers 400 `invalidFilter` with this text as `detail`, which should name the
   * attribute; `totalResults` and `resources` are then ignored. Never an unbounded read instead.
   */
  readonly declined?: string;
  readonly resources: readonly ScimResource[];
  /**
   * With `cursor`: the cursor of the page after this one; absent on the last page (RFC 9865 §2).
   * Opaque to the core, never `''`, and made of URI unreserved characters (`A–Z a–z 0–9 - . _ ~`:
   * unpadded base64url fits).
   */
  readonly nextCursor?: string;
  /** With `cursor`: the cursor of the page before this one; absent on the first page. */
  readonly previousCursor?: string;
}

export interface StoreCapabilities {
  /**
   * Return true when the store evaluates this whole filter itself (RFC semantics). `decision` says
   * which resource type is queried and gives the schema facts of every path, so a store decides per
   * attribute (a mapped column or not) without parsing schemas of its own. A store that accepts a
   * filter it then cannot finish within its bounds answers the query with `declined`.
   */
  readonly filter?: (filter: Filter, decision: FilterDecision) => boolean;
  /** The store sorts (it receives `sort` only if it also evaluated the filter). */
  readonly sort?: boolean;
  /** The store pages (it receives `startIndex`/`count` only if it also filtered and sorted). */
  readonly paging?: boolean;
  /** The store pages by keyset cursors (`StoreQuery.cursor`, RFC 9865); implies filter, sort and paging for the query. */
  readonly cursor?: boolean;
  /**
   * The store keeps the events of `WriteContext.events` / `DeleteContext.events` in an outbox, in
   * the same transaction as the write, and exposes it as `outbox`.
   */
  readonly events?: boolean;
  /** The store applies `DeleteContext.references` atomically with the delete. */
  readonly references?: boolean;
  /**
   * Every resource this store returns, and every value in it, is never changed afterwards, by the
   * store or by anyone (the memory store returns its own deep-frozen versions). The server then
   * keeps what it derives from a stored version's arrays (sizes, member digests, indexes of large
   * member lists) for as long as the version lives, instead of deriving it again on each request
   * (docs/architecture.md, "Server caches"). Default false: a store that returns fresh objects, or
   * one that may change what it returned, gets the same answers, derived per request.
   */
  readonly immutableResults?: boolean;
  /**
   * Who owns `meta.version`. `'core'` (the default): the store keeps the version the core gives it.
   * `'store'`: the store computes it (from an `updated_at` column or a counter, so the application's
   * own `UPDATE` changes the ETag) and returns it in `resource.meta.version` from `create`, `replace`
   * and every read; the core uses what the store returns, and compare-and-swap compares that.
   */
  readonly versions?: 'core' | 'store';
  /**
   * Who owns `id`. `'core'` (the default): the store keeps the id `create` receives (a random UUID).
   * `'store'`: the id `create` receives is a proposal, and the store may assign its own (a database
   * default, a sequence) and return it in `resource.id`; the core answers with the returned id.
   * Hooks that run before the write (`beforeWrite`) see the proposal.
   */
  readonly ids?: 'core' | 'store';
  /**
   * `'single'`: the store keeps one tenant (the application's own tables have no tenant column). The
   * server refuses a `tenancy` configuration with such a store, and the store fails any call made
   * for a named tenant instead of answering from the default one. Default `'multi'`.
   */
  readonly tenancy?: 'multi' | 'single';
  /**
   * The longest one call may wait on its backend before it fails with `StoreUnavailableError`
   * (a connection-acquire timeout plus a statement timeout), in milliseconds. The server then bounds
   * the store calls of one request together by it plus `storeDeadline.marginMs`, so that a request
   * making several calls (a PATCH with members, a cascading delete) waits no longer than one call
   * may (docs/operations/database-failures.md, "Bounds"). Undefined: no deadline (the memory store).
   */
  readonly callTimeoutMs?: number;
}

/** What `capabilities.filter` decides with. */
export interface FilterDecision {
  /** The resource type queried (`User`). */
  readonly resourceType: string;
  /**
   * Facts about an attribute path (type, caseExact, multiValued), resolved case-insensitively. The
   * server hands the same function for every query of one resource type (its resource model's), so a
   * store may keep what it derives from the facts by this function (weakly).
   */
  readonly attribute: (path: AttrPath) => AttributeFacts | undefined;
}

/**
 * What a pushed-down filter needs from the schema: a compiled predicate the store may use as its
 * reference, and per-path facts for stores that translate the AST (to SQL, say).
 */
export interface FilterSemantics {
  /** RFC 7644 §3.4.2.2 predicate for the query's filter (always true when there is none). */
  readonly matches: (resource: ScimResource) => boolean;
  /** RFC 7644 §3.4.2.3 comparator for the query's sort (undefined when there is none). */
  readonly compare?: (a: ScimResource, b: ScimResource) => number;
  /**
   * Facts about an attribute path (type, caseExact, multiValued), resolved case-insensitively. The
   * server hands the same function for every query of one resource type (its resource model's), so a
   * store may keep what it derives from the facts by this function (weakly).
   */
  readonly attribute: (path: AttrPath) => AttributeFacts | undefined;
  /**
   * True once the request's work budget (`limits.maxRequestWork`) is spent. `matches` charges the
   * budget for each resource it tests and answers false once it is spent, so a store that confirms
   * rows with `matches` batch by batch stops reading when this turns true (the server then refuses
   * the request with 400 tooMany). Absent: no budget applies.
   */
  readonly exhausted?: () => boolean;
}

export interface AttributeFacts {
  /** `urn:…:User:name.givenName` style full path in the schema's spelling. */
  readonly fullPath: string;
  readonly type: AttributeType;
  readonly caseExact: boolean;
  readonly multiValued: boolean;
}
