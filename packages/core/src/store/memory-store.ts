import { MemoryOutbox } from '../events/memory-outbox.js';
import type { ScimResource } from '../schema/scim-resource.js';
import { MemoryTable } from './memory-table.js';
import type { ScimEvent } from '../events/scim-event.js';
import type { CascadedChange, Referral, ScimStore, StoreCapabilities } from './scim-store.js';

export interface MemoryStoreOptions {
  /**
   * Resources to start with, by resource type name (`{ Group: [...] }`), for the default tenant.
   * Stored as given (deep-frozen copies), without uniqueness checks; each needs `id` and
   * `meta.version`. Indexed exactly as if created one by one (`userName eq` is a lookup at once).
   */
  readonly initial?: Readonly<Record<string, readonly ScimResource[]>>;
  /**
   * The most events the in-process outbox holds (docs/concepts/events.md); past it the oldest are
   * dropped, delivered or not. Default 100,000.
   */
  readonly maxEvents?: number;
}

/**
 * The memory store evaluates every filter, sorts and pages itself (by index and by keyset cursor),
 * and removes references atomically with a delete.
 */
const MEMORY_CAPABILITIES: StoreCapabilities = { filter: () => true, sort: true, paging: true, cursor: true, references: true, events: true, immutableResults: true };

/**
 * The in-memory reference store. Resources are kept deep-frozen and returned as they are stored,
 * without copying (a caller that needs to change one copies it first; the core never mutates what a
 * store returns); a write stores a frozen copy that shares every unchanged object with the version
 * it replaces, so adding one member to a 100,000-member group copies one element.
 *
 * Tenants (`ctx.tenant`) are kept in separate tables: ids, uniqueness, queries, references and
 * cursors never cross them. Uniqueness is enforced atomically (by `comparisonKey`: NFC, lower-cased when
 * the attribute is not caseExact). `id`, `externalId` and `userName` are indexed as resources are
 * stored; unique attributes, any other single-valued top-level string attribute and the `value` of
 * multi-valued complex attributes (`members.value`, `emails.value`) from their first use. So `eq` on
 * them is a lookup, not a scan. Everything lives in this one object: two stores never share state.
 *
 * Events (`WriteContext.events`) are appended to an in-process log (`outbox`, a {@link MemoryOutbox})
 * in the same synchronous step as the write: ordered and complete within this process, lost with it.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): ScimStore {
  /** tenant (undefined: the default tenant) → resource type → table. */
  const tenants = new Map<string | undefined, Map<string, MemoryTable>>();
  const find = (tenant: string | undefined, resourceType: string): MemoryTable | undefined => tenants.get(tenant)?.get(resourceType);
  const table = (tenant: string | undefined, resourceType: string): MemoryTable => {
    let types = tenants.get(tenant);
    if (types === undefined) tenants.set(tenant, (types = new Map()));
    let found = types.get(resourceType);
    if (found === undefined) types.set(resourceType, (found = new MemoryTable()));
    return found;
  };
  for (const [resourceType, resources] of Object.entries(options.initial ?? {})) {
    for (const resource of resources) table(undefined, resourceType).insert(resource, []);
  }

  const outbox = new MemoryOutbox(undefined, options.maxEvents);
  /** The write's events join the log in the write's own synchronous step. */
  const logged = <T extends { ok: boolean }>(result: T, events: (() => readonly ScimEvent[]) | undefined): T => {
    if (result.ok && events !== undefined) outbox.append(events());
    return result;
  };

  return {
    capabilities: MEMORY_CAPABILITIES,
    outbox,

    async create(resourceType, resource, ctx) {
      const written = table(ctx.tenant, resourceType).insert(resource, ctx.unique);
      return logged(written, written.ok && ctx.events !== undefined ? () => ctx.events!(written.resource) : undefined);
    },

    async get(resourceType, id, ctx) {
      return find(ctx?.tenant, resourceType)?.get(id);
    },

    async replace(resourceType, id, resource, expectedVersion, ctx) {
      const written = find(ctx.tenant, resourceType)?.replace(id, resource, expectedVersion, ctx.unique, ctx.changes) ?? { ok: false, reason: 'notFound' };
      return logged(written, written.ok && ctx.events !== undefined ? () => ctx.events!(written.resource) : undefined);
    },

    async assign(resourceType, id, assignment, ctx) {
      return find(ctx.tenant, resourceType)?.assign(id, assignment) ?? { ok: false, reason: 'notFound' };
    },

    async delete(resourceType, id, expectedVersion, ctx) {
      const deleted = find(ctx?.tenant, resourceType)?.remove(id, expectedVersion) ?? { ok: false, reason: 'notFound' };
      const touch = ctx?.touch;
      if (!deleted.ok || ctx?.references === undefined || touch === undefined) return logged(deleted, deleted.ok && ctx?.events !== undefined ? () => ctx.events!([]) : undefined);
      // Same synchronous step as the delete: no request can see the deleted id still referenced.
      const cascaded: CascadedChange[] = [];
      for (const reference of ctx.references) {
        const holders = find(ctx.tenant, reference.resourceType);
        for (const change of holders?.removeReferences(reference.attribute, id, touch) ?? []) {
          cascaded.push({ resourceType: reference.resourceType, ...change });
        }
      }
      return logged({ ok: true, cascaded }, ctx.events === undefined ? undefined : () => ctx.events!(cascaded));
    },

    async query(resourceType, query, ctx) {
      return find(ctx?.tenant, resourceType)?.query(query) ?? { totalResults: 0, resources: [] };
    },

    async referrers(lookup, resources, ctx) {
      const holders = find(ctx?.tenant, lookup.resourceType);
      const referrals: Referral[] = [];
      if (holders === undefined) return referrals;
      for (const resource of resources) {
        for (const referrer of holders.referencing(lookup.attribute, resource.id, lookup.caseExact)) referrals.push({ id: resource.id, referrer });
      }
      return referrals;
    },
  };
}
