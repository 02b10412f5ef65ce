import type { AttrPath, Filter } from '../filter/ast.js';
import type { AttributeType } from '../schema/attribute-definition.js';
import type { ScimResource } from '../schema/scim-resource.js';

/**
 * The storage contract. A store keeps resources in their SCIM JSON form, losslessly.
 * The core assigns `id`, `meta.created`, `meta.lastModified` and `meta.version`; the store
 * compares versions atomically and enforces uniqueness atomically.
 *
 * Expected outcomes (not found, version mismatch, uniqueness) are returned as data; a store
 * throws only for real failures, which the server answers with a 500 and reports to its logger.
 */
export interface ScimStore {
  /** What the store evaluates itself; the core does the rest in memory. */
  readonly capabilities?: StoreCapabilities;
  create(resourceType: string, resource: ScimResource, ctx: WriteContext): Promise<StoreWriteResult>;
  get(resourceType: string, id: string): Promise<ScimResource | undefined>;
  /** Replace `id` if its current `meta.version` equals `expectedVersion` (compare-and-swap). */
  replace(resourceType: string, id: string, resource: ScimResource, expectedVersion: string, ctx: WriteContext): Promise<StoreWriteResult>;
  /** Delete `id`; when `expectedVersion` is given, only if it is the current `meta.version`. */
  delete(resourceType: string, id: string, expectedVersion?: string): Promise<StoreDeleteResult>;
  query(resourceType: string, query: StoreQuery): Promise<StoreQueryResult>;
}

/** Attributes whose values must be unique within the resource type, from the schema's `uniqueness`. */
export interface UniqueAttribute {
  /** Top-level attribute name in the schema's spelling (`userName`), or `urn:…:attr` for extensions. */
  readonly path: string;
  readonly caseExact: boolean;
}

export interface WriteContext {
  readonly unique: readonly UniqueAttribute[];
}

export type StoreWriteResult =
  | { readonly ok: true; readonly resource: ScimResource }
  | { readonly ok: false; readonly reason: 'notFound' | 'versionMismatch' }
  | { readonly ok: false; readonly reason: 'uniqueness'; readonly attribute: string };

export type StoreDeleteResult = { readonly ok: true } | { readonly ok: false; readonly reason: 'notFound' | 'versionMismatch' };

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
}

export interface StoreQueryResult {
  /** Matching resources before paging. */
  readonly totalResults: number;
  readonly resources: readonly ScimResource[];
}

export interface StoreCapabilities {
  /** Return true when the store evaluates this whole filter itself (RFC semantics). */
  readonly filter?: (filter: Filter) => boolean;
  /** The store sorts (it receives `sort` only if it also evaluated the filter). */
  readonly sort?: boolean;
  /** The store pages (it receives `startIndex`/`count` only if it also filtered and sorted). */
  readonly paging?: boolean;
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
  /** Facts about an attribute path (type, caseExact, multiValued), resolved case-insensitively. */
  readonly attribute: (path: AttrPath) => AttributeFacts | undefined;
}

export interface AttributeFacts {
  /** `urn:…:User:name.givenName` style full path in the schema's spelling. */
  readonly fullPath: string;
  readonly type: AttributeType;
  readonly caseExact: boolean;
  readonly multiValued: boolean;
}
