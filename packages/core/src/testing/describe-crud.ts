import { describe, expect, it } from 'vitest';
import type { ScimStore } from '../store/scim-store.js';
import { group, NO_UNIQUE, revise, user, USER_CONTEXT } from './conformance-resources.js';

/** create / get / replace / delete and the compare-and-swap on `meta.version`. */
export function describeCrud(store: () => ScimStore): void {
  describe('create, get, replace, delete', () => {
    it('get returns what create stored, never the caller\'s object', async () => {
      const input = user('crud', { name: { givenName: 'C' } });
      const created = await store().create('User', input, USER_CONTEXT);
      expect(created).toEqual({ ok: true, resource: input });
      const read = await store().get('User', input.id);
      expect(read).toEqual(input);
      expect(read).not.toBe(input);
      input.userName = 'mutated-input';
      (input['name'] as Record<string, unknown>)['givenName'] = 'mutated-input';
      expect(await store().get('User', input.id)).toMatchObject({ userName: 'crud', name: { givenName: 'C' } });
    });

    it('what get returns is a copy or frozen: changing it never changes the store', async () => {
      const input = user('shielded', { name: { givenName: 'S' } });
      await store().create('User', input, USER_CONTEXT);
      const read = await store().get('User', input.id);
      // A store may return frozen objects (the core never mutates what a store returns).
      attempt(() => read !== undefined && (read.userName = 'mutated'));
      attempt(() => read !== undefined && ((read['name'] as Record<string, unknown>)['givenName'] = 'mutated'));
      expect(await store().get('User', input.id)).toMatchObject({ userName: 'shielded', name: { givenName: 'S' } });
    });

    it('get answers undefined for an unknown id or another resource type', async () => {
      const input = user('typed');
      await store().create('User', input, USER_CONTEXT);
      expect(await store().get('User', 'no-such-id')).toBeUndefined();
      expect(await store().get('Group', input.id)).toBeUndefined();
    });

    it('keeps resource types apart', async () => {
      const g = group('Admins');
      await store().create('Group', g, NO_UNIQUE);
      await store().create('User', user('someone'), USER_CONTEXT);
      expect((await store().get('Group', g.id))?.['displayName']).toBe('Admins');
      expect((await store().query('Group', { semantics: { matches: () => true, attribute: () => undefined } })).totalResults).toBe(1);
    });

    it('replace swaps the resource when the expected version is current', async () => {
      const input = user('replaced', { title: 'Before' });
      await store().create('User', input, USER_CONTEXT);
      const next = revise(input, { title: 'After' }, 'W/"2"');
      expect(await store().replace('User', input.id, next, 'W/"1"', USER_CONTEXT)).toEqual({ ok: true, resource: next });
      expect(await store().get('User', input.id)).toEqual(next);
      const third = revise(next, { title: undefined }, 'W/"3"');
      delete third['title'];
      expect((await store().replace('User', input.id, third, 'W/"2"', USER_CONTEXT)).ok).toBe(true);
      expect(await store().get('User', input.id)).toEqual(third);
    });

    it('replace of an unknown id is notFound', async () => {
      const ghost = user('ghost');
      expect(await store().replace('User', ghost.id, ghost, 'W/"1"', USER_CONTEXT)).toEqual({ ok: false, reason: 'notFound' });
      expect(await store().get('User', ghost.id)).toBeUndefined();
    });

    it('replace with a stale version is versionMismatch and changes nothing', async () => {
      const input = user('stale', { title: 'Original' });
      await store().create('User', input, USER_CONTEXT);
      const current = revise(input, { title: 'Current' }, 'W/"2"');
      await store().replace('User', input.id, current, 'W/"1"', USER_CONTEXT);
      const lost = revise(input, { title: 'Lost' }, 'W/"2"');
      expect(await store().replace('User', input.id, lost, 'W/"1"', USER_CONTEXT)).toEqual({ ok: false, reason: 'versionMismatch' });
      expect(await store().get('User', input.id)).toEqual(current);
    });

    it('of parallel replaces holding one version exactly one succeeds', async () => {
      const input = user('cas');
      await store().create('User', input, USER_CONTEXT);
      const results = await Promise.all(
        Array.from({ length: 25 }, (_, i) => store().replace('User', input.id, revise(input, { title: `w${i}` }, 'W/"2"'), 'W/"1"', USER_CONTEXT)),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok && r.reason === 'versionMismatch')).toHaveLength(24);
      const winner = results.find((r) => r.ok);
      expect(await store().get('User', input.id)).toEqual(winner?.ok === true ? winner.resource : undefined);
    });

    it('delete removes; a second delete is notFound', async () => {
      const input = user('deleted');
      await store().create('User', input, USER_CONTEXT);
      expect(await store().delete('User', input.id)).toEqual({ ok: true });
      expect(await store().get('User', input.id)).toBeUndefined();
      expect(await store().delete('User', input.id)).toEqual({ ok: false, reason: 'notFound' });
    });

    it('delete with an expected version compares and deletes atomically', async () => {
      const input = user('guarded');
      await store().create('User', input, USER_CONTEXT);
      expect(await store().delete('User', input.id, 'W/"0"')).toEqual({ ok: false, reason: 'versionMismatch' });
      expect(await store().get('User', input.id)).toEqual(input);
      expect(await store().delete('User', input.id, 'W/"1"')).toEqual({ ok: true });
      expect(await store().get('User', input.id)).toBeUndefined();
    });
  });
}

/** Runs a write into a returned resource, which throws when the store returned it frozen. */
function attempt(write: () => unknown): void {
  try {
    write();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}
