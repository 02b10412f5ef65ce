import { describe, expect, it } from 'vitest';
import type { ScimStore } from '../store/scim-store.js';
import { inTenant, revise, user } from './conformance-resources.js';
import type { ConformanceModels } from './conformance-schema.js';
import { runQuery } from './run-query.js';

const A = 'tenant-a';
const B = 'tenant-b';

/** `StoreContext.tenant`: ids, uniqueness and queries are per tenant, and tenants never see each other. */
export function describeTenancy(store: () => ScimStore, models: () => ConformanceModels): void {
  describe('tenants', () => {
    it('holds the same id and userName in two tenants and the default tenant, each its own', async () => {
      const id = `shared-${globalThis.crypto.randomUUID()}`;
      for (const tenant of [A, B, undefined]) {
        expect((await store().create('User', user('shared', { title: `of ${tenant ?? 'default'}` }, id), inTenant(tenant))).ok).toBe(true);
      }
      expect((await store().get('User', id, { tenant: A }))?.['title']).toBe(`of ${A}`);
      expect((await store().get('User', id, { tenant: B }))?.['title']).toBe(`of ${B}`);
      expect((await store().get('User', id))?.['title']).toBe('of default');
      expect((await store().get('User', id, {}))?.['title']).toBe('of default');
    });

    it("finds nothing of another tenant's resources by get, replace or delete", async () => {
      const mine = user('mine', { title: 'A only' });
      await store().create('User', mine, inTenant(A));
      expect(await store().get('User', mine.id, { tenant: B })).toBeUndefined();
      expect(await store().get('User', mine.id)).toBeUndefined();
      expect(await store().replace('User', mine.id, revise(mine, { title: 'stolen' }, 'W/"2"'), 'W/"1"', inTenant(B))).toEqual({ ok: false, reason: 'notFound' });
      expect(await store().replace('User', mine.id, revise(mine, { title: 'stolen' }, 'W/"2"'), 'W/"1"', inTenant(undefined))).toEqual({ ok: false, reason: 'notFound' });
      expect(await store().delete('User', mine.id, undefined, { tenant: B })).toEqual({ ok: false, reason: 'notFound' });
      expect(await store().delete('User', mine.id, 'W/"1"')).toEqual({ ok: false, reason: 'notFound' });
      expect(await store().get('User', mine.id, { tenant: A })).toEqual(mine);
      expect(await store().delete('User', mine.id, 'W/"1"', { tenant: A })).toEqual({ ok: true });
    });

    it("queries see only the tenant's own resources, by scan and by lookup", async () => {
      for (const name of ['ann', 'ben', 'cy']) await store().create('User', user(name), inTenant(A));
      await store().create('User', user('ann'), inTenant(B));
      const inA = await runQuery(store(), models().user, {}, { tenant: A });
      const inB = await runQuery(store(), models().user, {}, { tenant: B });
      expect(inA.resources.map((r) => r['userName']).sort()).toEqual(['ann', 'ben', 'cy']);
      expect(inB.resources.map((r) => r['userName'])).toEqual(['ann']);
      expect((await runQuery(store(), models().user, {})).totalResults).toBe(0);
      expect((await runQuery(store(), models().user, { filter: 'userName eq "ben"' }, { tenant: B })).totalResults).toBe(0);
      const ann = await runQuery(store(), models().user, { filter: 'userName eq "ANN"' }, { tenant: B });
      expect(ann.resources.map((r) => r.id)).toEqual(inB.resources.map((r) => r.id));
      const paged = await runQuery(store(), models().user, { sortBy: 'userName', startIndex: 1, count: 10 }, { tenant: A });
      expect(paged.totalResults).toBe(3);
    });

    it('keeps uniqueness per tenant', async () => {
      expect((await store().create('User', user('bjensen'), inTenant(A))).ok).toBe(true);
      expect((await store().create('User', user('BJensen'), inTenant(B))).ok).toBe(true);
      expect((await store().create('User', user('bjensen'), inTenant(undefined))).ok).toBe(true);
      expect(await store().create('User', user('BJENSEN'), inTenant(A))).toEqual({ ok: false, reason: 'uniqueness', attribute: 'userName' });
      expect(await store().create('User', user('bJensen'), inTenant(B))).toEqual({ ok: false, reason: 'uniqueness', attribute: 'userName' });
    });

    it('a rename or delete in one tenant frees the value in that tenant only', async () => {
      const a = user('taken');
      await store().create('User', a, inTenant(A));
      await store().create('User', user('taken'), inTenant(B));
      await store().replace('User', a.id, revise(a, { userName: 'renamed' }, 'W/"2"'), 'W/"1"', inTenant(A));
      expect((await store().create('User', user('Taken'), inTenant(A))).ok).toBe(true);
      expect(await store().create('User', user('Taken'), inTenant(B))).toEqual({ ok: false, reason: 'uniqueness', attribute: 'userName' });
    });
  });
}
