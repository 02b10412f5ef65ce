import { describe, expect, it } from 'vitest';
import type { ScimResource } from '../schema/scim-resource.js';
import type { ScimStore } from '../store/scim-store.js';
import { group, member, NO_UNIQUE, revise } from './conformance-resources.js';
import type { ConformanceModels } from './conformance-schema.js';
import { runQuery } from './run-query.js';

/** A deep copy as JSON, to compare what a store handed out with what it holds later. */
const snapshot = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/**
 * `capabilities.immutableResults`: every resource the store returns, and every value in it, is never
 * changed afterwards (docs/architecture.md, "Server caches": the server keeps what it derives from
 * such a version for as long as the version lives). Whatever the store handed out must read the same
 * after later replaces, element changes, deletes and queries of the same resource.
 */
export function describeImmutableResults(store: () => ScimStore, models: () => ConformanceModels): void {
  describe('results never change once returned (capabilities.immutableResults)', () => {
    it('a read, a write result and a query row stay as they were through replace, element changes and delete', async () => {
      const first = group('Kept', undefined, [member('m-1'), member('m-2')]);
      const created = await store().create('Group', first, NO_UNIQUE);
      expect(created.ok).toBe(true);
      const handedOut: unknown[] = [];
      const keep = (value: unknown): void => {
        if (value !== undefined) handedOut.push(value);
      };
      keep(created.ok ? created.resource : undefined);
      const read = await store().get('Group', first.id);
      keep(read);
      keep((await runQuery(store(), models().group, { filter: 'displayName eq "Kept"' })).resources[0]);
      const snapshots = handedOut.map(snapshot);

      const members = (read?.['members'] as Record<string, unknown>[] | undefined) ?? [];
      const added = member('m-3');
      const next: ScimResource = revise(first, { displayName: 'Renamed', members: [...members.slice(1), added] }, 'W/"2"');
      const replaced = await store().replace('Group', first.id, next, 'W/"1"', { ...NO_UNIQUE, changes: [{ attribute: 'members', added: [added], removed: [members[0] as Record<string, unknown>] }] });
      expect(replaced.ok).toBe(true);
      keep(replaced.ok ? replaced.resource : undefined);
      snapshots.push(snapshot(handedOut.at(-1)));
      expect((await store().delete('Group', first.id, 'W/"2"')).ok).toBe(true);

      expect(handedOut.map(snapshot)).toEqual(snapshots);
    });
  });
}
