import { describe, expect, it } from 'vitest';
import { URN } from '../schema/urns.js';
import type { ScimStore } from '../store/scim-store.js';
import { group, revise, uniqueContext, user, USER_CONTEXT } from './conformance-resources.js';

/** Uniqueness from the WriteContext, enforced atomically (RFC 7643 §2.2 `uniqueness`). */
export function describeUniqueness(store: () => ScimStore): void {
  describe('uniqueness', () => {
    it('refuses a taken value ignoring case when caseExact is false', async () => {
      expect((await store().create('User', user('Unique'), USER_CONTEXT)).ok).toBe(true);
      for (const name of ['Unique', 'unique', 'UNIQUE']) {
        expect(await store().create('User', user(name), USER_CONTEXT)).toEqual({ ok: false, reason: 'uniqueness', attribute: 'userName' });
      }
      expect((await store().query('User', { semantics: { matches: () => true, attribute: () => undefined } })).totalResults).toBe(1);
    });

    it('compares Unicode text by its NFC form: NFC josé and NFD jose\u0301 collide', async () => {
      expect((await store().create('User', user('jos\u00e9'), USER_CONTEXT)).ok).toBe(true);
      for (const name of ['jose\u0301', 'JOSE\u0301', 'JOS\u00c9']) {
        expect(await store().create('User', user(name), USER_CONTEXT)).toEqual({ ok: false, reason: 'uniqueness', attribute: 'userName' });
      }
      expect((await store().create('User', user('jose'), USER_CONTEXT)).ok).toBe(true);
      expect((await store().create('User', user('Zoe\u0308'), USER_CONTEXT)).ok).toBe(true);
      expect(await store().create('User', user('zo\u00eb'), USER_CONTEXT)).toEqual({ ok: false, reason: 'uniqueness', attribute: 'userName' });
    });

    it('compares exactly when caseExact is true', async () => {
      const exact = uniqueContext({ path: 'userName', caseExact: true });
      expect((await store().create('User', user('Exact'), exact)).ok).toBe(true);
      expect((await store().create('User', user('exact'), exact)).ok).toBe(true);
      expect(await store().create('User', user('Exact'), exact)).toEqual({ ok: false, reason: 'uniqueness', attribute: 'userName' });
    });

    it('enforces unique extension attributes by their URN path', async () => {
      const path = `${URN.enterpriseUser}:employeeNumber`;
      const ctx = uniqueContext({ path: 'userName', caseExact: false }, { path, caseExact: true });
      expect((await store().create('User', user('e1', { [URN.enterpriseUser]: { employeeNumber: '42' } }), ctx)).ok).toBe(true);
      expect(await store().create('User', user('e2', { [URN.enterpriseUser]: { employeeNumber: '42' } }), ctx)).toEqual({ ok: false, reason: 'uniqueness', attribute: path });
      expect((await store().create('User', user('e3', { [URN.enterpriseUser]: { employeeNumber: '43' } }), ctx)).ok).toBe(true);
      expect((await store().create('User', user('e4'), ctx)).ok).toBe(true);
      expect((await store().create('User', user('e5'), ctx)).ok).toBe(true);
    });

    it('checks replace against others but not against the resource itself', async () => {
      const first = user('first');
      const second = user('second');
      await store().create('User', first, USER_CONTEXT);
      await store().create('User', second, USER_CONTEXT);
      expect(await store().replace('User', second.id, revise(second, { userName: 'FIRST' }, 'W/"2"'), 'W/"1"', USER_CONTEXT)).toEqual({
        ok: false,
        reason: 'uniqueness',
        attribute: 'userName',
      });
      expect((await store().get('User', second.id))?.userName).toBe('second');
      expect((await store().replace('User', second.id, revise(second, { userName: 'SECOND' }, 'W/"2"'), 'W/"1"', USER_CONTEXT)).ok).toBe(true);
      // 'SECOND' still holds the value ignoring case; a delete releases it.
      expect((await store().create('User', user('second'), USER_CONTEXT)).ok).toBe(false);
      expect((await store().create('User', user('Second-2'), USER_CONTEXT)).ok).toBe(true);
      await store().delete('User', first.id);
      expect((await store().create('User', user('first'), USER_CONTEXT)).ok).toBe(true);
    });

    it('frees a value once its holder is renamed', async () => {
      const holder = user('rename-me');
      await store().create('User', holder, USER_CONTEXT);
      await store().replace('User', holder.id, revise(holder, { userName: 'renamed' }, 'W/"2"'), 'W/"1"', USER_CONTEXT);
      expect((await store().create('User', user('rename-me'), USER_CONTEXT)).ok).toBe(true);
    });

    it('is scoped to a resource type', async () => {
      const ctx = uniqueContext({ path: 'displayName', caseExact: false });
      expect((await store().create('Group', group('Same'), ctx)).ok).toBe(true);
      expect((await store().create('User', user('x', { displayName: 'Same' }), ctx)).ok).toBe(true);
    });

    it('of 50 parallel creates of one value exactly one succeeds', async () => {
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => store().create('User', user(i % 2 ? 'racer' : 'RACER'), USER_CONTEXT)));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok && r.reason === 'uniqueness')).toHaveLength(49);
    });

    it('of parallel renames to one value exactly one succeeds', async () => {
      const users = Array.from({ length: 20 }, (_, i) => user(`rn${i}`));
      for (const u of users) await store().create('User', u, USER_CONTEXT);
      const results = await Promise.all(users.map((u) => store().replace('User', u.id, revise(u, { userName: 'target' }, 'W/"2"'), 'W/"1"', USER_CONTEXT)));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
    });
  });
}
