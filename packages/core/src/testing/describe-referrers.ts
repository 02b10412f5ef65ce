import { describe, expect, it } from 'vitest';
import type { ScimResource } from '../schema/scim-resource.js';
import type { ReferenceLookup, Referral, ScimStore, StoreContext } from '../store/scim-store.js';
import { group, inTenant, member, NO_UNIQUE, revise, user, USER_CONTEXT } from './conformance-resources.js';
import { runQuery } from './run-query.js';
import type { ConformanceModels } from './conformance-schema.js';

/** `Group.members`, compared as the Group schema's `members.value` (caseExact false). */
const MEMBERS: ReferenceLookup = { resourceType: 'Group', attribute: 'members', caseExact: false };
const EXACT: ReferenceLookup = { ...MEMBERS, caseExact: true };

/** The referrals as `id → sorted referrer ids`, and each referrer's displayName (what the core reads). */
function byId(referrals: readonly Referral[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const { id, referrer } of referrals) (out[id] ??= []).push(referrer.id);
  for (const list of Object.values(out)) list.sort();
  return out;
}

function ask(store: ScimStore, lookup: ReferenceLookup, resources: readonly ScimResource[], ctx?: StoreContext): Promise<readonly Referral[]> {
  if (store.referrers === undefined) throw new Error('the store has no referrers');
  return store.referrers(lookup, resources, ctx);
}

/**
 * `ScimStore.referrers` (the batched lookup behind the computed `User.groups`): for a page of
 * resources, the resources that reference each through the lookup's attribute, compared as
 * `members.value eq` compares; never stale when the store answers from what it read with a
 * resource (`StoreContext.referrers`).
 */
export function describeReferrers(store: () => ScimStore, models: () => ConformanceModels): void {
  describe('referrers (the groups of a page of resources, in one call)', () => {
    it('finds, for each given resource, every group holding it, and the groups of groups', async () => {
      const [a, b, c, lone] = [user('ref-a'), user('ref-b'), user('ref-c'), user('ref-lone')];
      for (const u of [a, b, c, lone]) await store().create('User', u, USER_CONTEXT);
      const team = group('Team', undefined, [member(a.id), member(b.id)]);
      const other = group('Other', undefined, [member(a.id)]);
      const outer = group('Outer', undefined, [member(team.id, 'Group'), member(c.id)]);
      for (const g of [team, other, outer]) await store().create('Group', g, NO_UNIQUE);

      const referrals = await ask(store(), MEMBERS, [a, b, c, lone]);
      expect(byId(referrals)).toEqual({ [a.id]: [team.id, other.id].sort(), [b.id]: [team.id], [c.id]: [outer.id] });
      const shown = referrals.find((r) => r.referrer.id === team.id)?.referrer;
      expect(shown?.['displayName']).toBe('Team');
      // A referrer passed back (nested groups): the groups holding it.
      const teamAsReturned = referrals.find((r) => r.referrer.id === team.id)?.referrer as ScimResource;
      expect(byId(await ask(store(), MEMBERS, [teamAsReturned, other]))).toEqual({ [team.id]: [outer.id] });
      expect(await ask(store(), MEMBERS, [])).toEqual([]);
      expect(await ask(store(), MEMBERS, [user('never-stored')])).toEqual([]);
    });

    it('compares the value as members.value eq does: case and NFC ignored unless caseExact, strings only', async () => {
      const id = `Caf\u00e9-${globalThis.crypto.randomUUID()}`;
      const u = user('ref-case', {}, id);
      await store().create('User', u, USER_CONTEXT);
      const folded = group('Folded', undefined, [{ value: id.normalize('NFD').toUpperCase(), type: 'User' }]);
      const exact = group('Exact', undefined, [member(id)]);
      const odd = group('Odd', undefined, [{ display: 'no value' }, { value: 7 }]);
      for (const g of [folded, exact, odd]) await store().create('Group', g, NO_UNIQUE);
      expect(byId(await ask(store(), MEMBERS, [u]))).toEqual({ [id]: [folded.id, exact.id].sort() });
      expect(byId(await ask(store(), EXACT, [u]))).toEqual({ [id]: [exact.id] });
      // The same set as the query the core would otherwise make.
      const queried = await runQuery(store(), models().group, { filter: `members.value eq "${id}"` });
      expect(queried.resources.map((r) => r.id).sort()).toEqual([folded.id, exact.id].sort());
      const seven = user('ref-seven', {}, '7');
      await store().create('User', seven, USER_CONTEXT);
      expect(await ask(store(), MEMBERS, [seven])).toEqual([]);
    });

    it("never finds another tenant's groups", async () => {
      const id = `twin-${globalThis.crypto.randomUUID()}`;
      const inA = user('twin', {}, id);
      await store().create('User', inA, inTenant('tenant-a'));
      await store().create('User', user('twin', {}, id), inTenant('tenant-b'));
      const ga = group('A', undefined, [member(id)]);
      await store().create('Group', ga, inTenant('tenant-a', NO_UNIQUE));
      expect(byId(await ask(store(), MEMBERS, [inA], { tenant: 'tenant-a' }))).toEqual({ [id]: [ga.id] });
      expect(await ask(store(), MEMBERS, [inA], { tenant: 'tenant-b' })).toEqual([]);
      expect(await ask(store(), MEMBERS, [inA])).toEqual([]);
    });

    it('answers for what a read returned with ctx.referrers as of that read, and a later read sees later changes', async () => {
      const u = user('ref-hint');
      await store().create('User', u, USER_CONTEXT);
      const g = group('Hinted', undefined, [member(u.id)]);
      await store().create('Group', g, NO_UNIQUE);
      const hinted: StoreContext = { referrers: MEMBERS };

      const read = (await store().get('User', u.id, hinted)) as ScimResource;
      expect(byId(await ask(store(), MEMBERS, [read], hinted))).toEqual({ [u.id]: [g.id] });
      const listed = await runQuery(store(), models().user, { filter: 'userName eq "ref-hint"', count: 10 }, hinted);
      const page = listed.resources.filter((r) => r.id === u.id);
      expect(page).toHaveLength(1);
      expect(byId(await ask(store(), MEMBERS, page, hinted))).toEqual({ [u.id]: [g.id] });

      // The group drops the user, a second group takes it: a new read sees exactly that.
      const emptied = revise(g, { members: [] }, 'W/"2"');
      expect((await store().replace('Group', g.id, emptied, 'W/"1"', NO_UNIQUE)).ok).toBe(true);
      const second = group('Second', undefined, [member(u.id)]);
      await store().create('Group', second, NO_UNIQUE);
      const again = (await store().get('User', u.id, hinted)) as ScimResource;
      expect(byId(await ask(store(), MEMBERS, [again], hinted))).toEqual({ [u.id]: [second.id] });
      const replaced = await store().replace('User', u.id, revise(u, { displayName: 'R' }, 'W/"2"'), 'W/"1"', { ...USER_CONTEXT, ...hinted });
      expect(replaced.ok).toBe(true);
      if (replaced.ok) expect(byId(await ask(store(), MEMBERS, [replaced.resource], hinted))).toEqual({ [u.id]: [second.id] });
      expect((await store().delete('Group', second.id)).ok).toBe(true);
      const last = (await store().get('User', u.id, hinted)) as ScimResource;
      expect(await ask(store(), MEMBERS, [last], hinted)).toEqual([]);
    });
  });
}
