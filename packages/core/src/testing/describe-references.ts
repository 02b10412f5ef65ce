import { describe, expect, it } from 'vitest';
import type { ScimMeta, ScimResource } from '../schema/scim-resource.js';
import type { DeleteContext, ScimStore } from '../store/scim-store.js';
import { group, inTenant, member, NO_UNIQUE, user, USER_CONTEXT } from './conformance-resources.js';
import type { ConformanceModels } from './conformance-schema.js';
import { runQuery } from './run-query.js';

const MEMBERS = [{ resourceType: 'Group', attribute: 'members' }] as const;
const touched = (resource: ScimResource): ScimMeta => ({ ...resource.meta, lastModified: '2026-02-02T00:00:00.000Z', version: `${resource.meta.version}+` });
const cascade = (tenant?: string): DeleteContext => ({ ...(tenant === undefined ? {} : { tenant }), references: MEMBERS, touch: touched });

const membersOf = (resource: ScimResource | undefined) => (resource?.['members'] as { value: string }[] | undefined)?.map((m) => m.value);

/**
 * `DeleteContext.references` with `capabilities.references`: the delete removes every element that
 * references the deleted id, in the same atomic step, and reports each changed resource.
 */
export function describeReferences(store: () => ScimStore, models: () => ConformanceModels): void {
  describe('reference cascade on delete (capabilities.references)', () => {
    it('removes the deleted id from every group, gives each the touched meta and reports before and after', async () => {
      const gone = user('gone');
      const stays = user('stays');
      for (const u of [gone, stays]) await store().create('User', u, USER_CONTEXT);
      const both = group('Both', undefined, [member(stays.id), member(gone.id)]);
      const onlyGone = group('OnlyGone', undefined, [member(gone.id)]);
      const other = group('Other', undefined, [member(stays.id)]);
      for (const g of [both, onlyGone, other]) await store().create('Group', g, NO_UNIQUE);

      const result = await store().delete('User', gone.id, undefined, cascade());
      expect(result.ok).toBe(true);
      const cascaded = result.ok ? [...(result.cascaded ?? [])] : [];
      expect(cascaded.map((c) => c.before.id).sort()).toEqual([both.id, onlyGone.id].sort());
      for (const change of cascaded) {
        expect(change.resourceType).toBe('Group');
        expect(change.after.meta).toEqual(touched(change.before));
        expect(await store().get('Group', change.before.id)).toEqual(change.after);
        expect(membersOf(change.after)).not.toContain(gone.id);
      }
      expect(cascaded.find((c) => c.before.id === both.id)?.before).toEqual(both);
      const afterBoth = await store().get('Group', both.id);
      expect(afterBoth).toEqual({ ...both, members: [member(stays.id)], meta: touched(both) });
      expect(membersOf(await store().get('Group', onlyGone.id))).toEqual([]);
      expect(await store().get('Group', other.id)).toEqual(other);
      expect((await runQuery(store(), models().group, { filter: `members.value eq "${gone.id}"` })).totalResults).toBe(0);
      expect((await runQuery(store(), models().group, { filter: `members.value eq "${stays.id}"` })).totalResults).toBe(2);
    });

    it('removes a deleted group from the groups that nest it', async () => {
      const inner = group('Inner');
      const outer = group('Outer', undefined, [member(inner.id, 'Group')]);
      await store().create('Group', inner, NO_UNIQUE);
      await store().create('Group', outer, NO_UNIQUE);
      const result = await store().delete('Group', inner.id, 'W/"1"', cascade());
      expect(result.ok && result.cascaded?.map((c) => c.after)).toEqual([{ ...outer, members: [], meta: touched(outer) }]);
    });

    it('cascades nothing when the delete is refused, and nothing for an id no one references', async () => {
      const held = user('held');
      await store().create('User', held, USER_CONTEXT);
      const g = group('Holder', undefined, [member(held.id)]);
      await store().create('Group', g, NO_UNIQUE);
      expect(await store().delete('User', held.id, 'W/"0"', cascade())).toEqual({ ok: false, reason: 'versionMismatch' });
      expect(await store().get('Group', g.id)).toEqual(g);
      const alone = user('alone');
      await store().create('User', alone, USER_CONTEXT);
      const result = await store().delete('User', alone.id, undefined, cascade());
      expect(result.ok && (result.cascaded ?? []).length).toBe(0);
    });

    it("never touches another tenant's groups", async () => {
      const id = `same-${globalThis.crypto.randomUUID()}`;
      await store().create('User', user('twin', {}, id), inTenant('tenant-a'));
      await store().create('User', user('twin', {}, id), inTenant('tenant-b'));
      const inA = group('A', undefined, [member(id)]);
      const inB = group('B', undefined, [member(id)]);
      await store().create('Group', inA, inTenant('tenant-a', NO_UNIQUE));
      await store().create('Group', inB, inTenant('tenant-b', NO_UNIQUE));
      const result = await store().delete('User', id, undefined, cascade('tenant-a'));
      expect(result.ok && result.cascaded?.map((c) => c.before.id)).toEqual([inA.id]);
      expect(await store().get('Group', inB.id, { tenant: 'tenant-b' })).toEqual(inB);
      expect(membersOf(await store().get('Group', inA.id, { tenant: 'tenant-a' }))).toEqual([]);
    });
  });
}

/** A store without `capabilities.references` may ignore `ctx.references`: the core removes references itself. */
export function describeIgnoredReferences(store: () => ScimStore): void {
  describe('reference cascade left to the core (no capabilities.references)', () => {
    it('deletes normally when handed references it did not declare', async () => {
      const held = user('held');
      await store().create('User', held, USER_CONTEXT);
      await store().create('Group', group('Holder', undefined, [member(held.id)]), NO_UNIQUE);
      const result = await store().delete('User', held.id, undefined, cascade());
      expect(result.ok).toBe(true);
      expect(await store().get('User', held.id)).toBeUndefined();
    });
  });
}
