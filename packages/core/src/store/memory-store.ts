import type { ScimResource } from '../schema/scim-resource.js';
import { MemoryTable } from './memory-table.js';
import type { ScimStore, StoreCapabilities } from './scim-store.js';

export interface MemoryStoreOptions {
  /**
   * Resources to start with, by resource type name (`{ Group: [...] }`). Stored as given (cloned),
   * without uniqueness checks; each needs `id` and `meta.version`.
   */
  readonly initial?: Readonly<Record<string, readonly ScimResource[]>>;
}

/** The memory store evaluates every filter, sorts and pages itself. */
const MEMORY_CAPABILITIES: StoreCapabilities = { filter: () => true, sort: true, paging: true };

/**
 * The in-memory reference store: lossless (every resource is cloned on the way in and out),
 * uniqueness enforced atomically (case-insensitively when the attribute is not caseExact), and
 * `id`, `externalId` and unique attributes indexed so `userName eq "x"` is a lookup, not a scan.
 * Everything lives in this one object: two stores never share state.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): ScimStore {
  const tables = new Map<string, MemoryTable>();
  const table = (resourceType: string): MemoryTable => {
    let found = tables.get(resourceType);
    if (found === undefined) tables.set(resourceType, (found = new MemoryTable()));
    return found;
  };
  for (const [resourceType, resources] of Object.entries(options.initial ?? {})) {
    for (const resource of resources) table(resourceType).insert(structuredClone(resource), []);
  }

  return {
    capabilities: MEMORY_CAPABILITIES,

    async create(resourceType, resource, ctx) {
      return cloneResult(table(resourceType).insert(structuredClone(resource), ctx.unique));
    },

    async get(resourceType, id) {
      const found = tables.get(resourceType)?.get(id);
      return found === undefined ? undefined : structuredClone(found);
    },

    async replace(resourceType, id, resource, expectedVersion, ctx) {
      const copy = structuredClone(resource);
      copy.id = id;
      return cloneResult(table(resourceType).replace(id, copy, expectedVersion, ctx.unique));
    },

    async delete(resourceType, id, expectedVersion) {
      return tables.get(resourceType)?.remove(id, expectedVersion) ?? { ok: false, reason: 'notFound' };
    },

    async query(resourceType, query) {
      const found = tables.get(resourceType);
      if (found === undefined) return { totalResults: 0, resources: [] };
      const { totalResults, resources } = found.query(query);
      return { totalResults, resources: resources.map((resource) => structuredClone(resource)) };
    },
  };
}

function cloneResult<T extends { ok: boolean; resource?: ScimResource }>(result: T): T {
  return result.ok && result.resource !== undefined ? { ...result, resource: structuredClone(result.resource) } : result;
}
