import { describe, expect, it } from 'vitest';
import type { ScimResource } from '../schema/scim-resource.js';
import type { MultiValuedChange, ScimStore, WriteContext } from '../store/scim-store.js';
import { group, member, NO_UNIQUE, revise } from './conformance-resources.js';
import type { ConformanceModels } from './conformance-schema.js';
import { runQuery } from './run-query.js';

const MEMBERS = 200;

/**
 * `WriteContext.changes` on replace: a store may apply the element-by-element change or ignore it,
 * but the resource it keeps is exactly the whole `resource` argument either way (as a JSON value:
 * compared by deep equality, element order included, key order not).
 */
export function describeChanges(store: () => ScimStore, models: () => ConformanceModels): void {
  describe('replace with element changes', () => {
    const seeded = async (): Promise<ScimResource> => {
      const big = group('Big', undefined, Array.from({ length: MEMBERS }, (_, i) => member(`m-${i}`)));
      expect((await store().create('Group', big, NO_UNIQUE)).ok).toBe(true);
      return big;
    };
    const withChanges = (...changes: MultiValuedChange[]): WriteContext => ({ ...NO_UNIQUE, changes });
    const membersOf = (resource: ScimResource | undefined) => resource?.['members'] as Record<string, unknown>[] | undefined;

    it('adding one member stores exactly the resource given', async () => {
      const before = await seeded();
      const added = member('new-one');
      const next = revise(before, { members: [...(membersOf(before) ?? []), added] }, 'W/"2"');
      const written = await store().replace('Group', before.id, next, 'W/"1"', withChanges({ attribute: 'members', added: [added], removed: [] }));
      expect(written).toEqual({ ok: true, resource: next });
      const read = await store().get('Group', before.id);
      expect(read).toEqual(next);
    });

    it('removing members from the middle and adding others in one write stores exactly the resource given', async () => {
      const before = await seeded();
      const stored = membersOf(before) ?? [];
      const removed = [stored[0], stored[57], stored[MEMBERS - 1]] as Record<string, unknown>[];
      const added = [member('n-1'), member('n-2', 'Group')];
      const next = revise(before, { displayName: 'Renamed', members: [...stored.filter((m) => !removed.includes(m)), ...added] }, 'W/"2"');
      expect((await store().replace('Group', before.id, next, 'W/"1"', withChanges({ attribute: 'members', added, removed }))).ok).toBe(true);
      const read = await store().get('Group', before.id);
      expect(read).toEqual(next);
      expect(membersOf(read)).toHaveLength(MEMBERS - 1);
    });

    it('removing every member stores the resource without members', async () => {
      const before = await seeded();
      const next = revise(before, {}, 'W/"2"');
      delete next['members'];
      expect((await store().replace('Group', before.id, next, 'W/"1"', withChanges({ attribute: 'members', added: [], removed: membersOf(before) ?? [] }))).ok).toBe(true);
      expect(await store().get('Group', before.id)).toEqual(next);
    });

    it('successive changes build on each other, and queries follow them', async () => {
      const before = await seeded();
      let current = before;
      for (let step = 0; step < 5; step++) {
        const added = member(`step-${step}`);
        const removed = (membersOf(current) ?? [])[step] as Record<string, unknown>;
        const next = revise(current, { members: [...(membersOf(current) ?? []).filter((m) => m !== removed), added] }, `W/"${step + 2}"`);
        const written = await store().replace('Group', before.id, next, current.meta.version, withChanges({ attribute: 'members', added: [added], removed: [removed] }));
        expect(written.ok).toBe(true);
        current = next;
      }
      expect(await store().get('Group', before.id)).toEqual(current);
      const find = (id: string) => runQuery(store(), models().group, { filter: `members.value eq "${id}"` });
      expect((await find('step-4')).resources.map((r) => r.id)).toEqual([before.id]);
      expect((await find('m-0')).totalResults).toBe(0);
      expect((await find('m-10')).totalResults).toBe(1);
    });

    it('a stale version with changes is versionMismatch and changes nothing', async () => {
      const before = await seeded();
      const added = member('late');
      const next = revise(before, { members: [...(membersOf(before) ?? []), added] }, 'W/"2"');
      expect(await store().replace('Group', before.id, next, 'W/"0"', withChanges({ attribute: 'members', added: [added], removed: [] }))).toEqual({
        ok: false,
        reason: 'versionMismatch',
      });
      expect(await store().get('Group', before.id)).toEqual(before);
    });
  });
}
