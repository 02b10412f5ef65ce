import { describe, expect, it } from 'vitest';
import type { ScimResource } from '../schema/scim-resource.js';
import type { ScimStore, StoreAssignment } from '../store/scim-store.js';
import { group, inTenant, member, NO_UNIQUE, revise, user, USER_CONTEXT } from './conformance-resources.js';

const LATER = '2026-03-04T05:06:07.089Z';
const ROOMY = 1_000_000;

function assignment(values: StoreAssignment['values'], extra: Partial<StoreAssignment> = {}): StoreAssignment {
  return { values, lastModified: LATER, freshVersion: 'W/"1764140000000"', maxResourceBytes: ROOMY, ...extra };
}

/** `resource` as an assignment of `values` leaves it: set, merged into objects, `meta` advanced. */
function expected(resource: ScimResource, values: Record<string, unknown>, version: string): ScimResource {
  const out: Record<string, unknown> = { ...resource };
  for (const [key, value] of Object.entries(values)) {
    const current = out[key];
    out[key] = typeof value === 'object' && value !== null ? { ...(typeof current === 'object' && current !== null ? current : {}), ...value } : value;
  }
  out['meta'] = { ...resource.meta, lastModified: LATER, version };
  return out as ScimResource;
}

/**
 * `ScimStore.assign`, for stores that have it: a PATCH the core decided without the stored resource,
 * applied in one atomic step; the version and lastModified advance only when something changes;
 * `expectedVersion` compared first; no update lost to concurrent writers.
 */
export function describeAssign(store: () => ScimStore): void {
  const assign = (type: string, id: string, what: StoreAssignment, ctx = {}) => (store().assign as NonNullable<ScimStore['assign']>)(type, id, what, ctx);

  describe('assign (a PATCH pushed down)', () => {
    it('sets top-level values and sub-attributes, keeps the rest, advances the counter and lastModified', async () => {
      const input = user('assigned', { displayName: 'Before', name: { familyName: 'F', givenName: 'G' }, active: true });
      await store().create('User', input, USER_CONTEXT);
      const values = { displayName: 'After', name: { givenName: 'H' }, active: false, title: 'T' };
      const done = await assign('User', input.id, assignment(values));
      const after = expected(input, values, 'W/"2"');
      expect(done).toEqual({ ok: true, resource: after, changed: true });
      expect(await store().get('User', input.id)).toEqual(after);
    });

    it('creates the object of a complex attribute the resource does not have', async () => {
      const input = user('no-name');
      await store().create('User', input, USER_CONTEXT);
      const done = await assign('User', input.id, assignment({ name: { givenName: 'New', familyName: 'Name' }, nickName: 'n' }));
      expect(done.ok && done.resource['name']).toEqual({ givenName: 'New', familyName: 'Name' });
      expect((await store().get('User', input.id))?.['name']).toEqual({ givenName: 'New', familyName: 'Name' });
    });

    it('keeps numbers and booleans as given', async () => {
      const input = user('typed-values');
      await store().create('User', input, USER_CONTEXT);
      const done = await assign('User', input.id, assignment({ active: false, x: 12.5 }));
      expect(done.ok && [done.resource['active'], done.resource['x']]).toEqual([false, 12.5]);
    });

    it('a resource that already holds every value is unchanged: version and lastModified kept, nothing written', async () => {
      const input = user('same', { displayName: 'Same', name: { givenName: 'G' } });
      await store().create('User', input, USER_CONTEXT);
      const done = await assign('User', input.id, assignment({ displayName: 'Same', name: { givenName: 'G' } }));
      expect(done).toEqual({ ok: true, resource: input, changed: false });
      expect(await store().get('User', input.id)).toEqual(input);
    });

    it('the version advances once per change, from the stored counter', async () => {
      const input = user('counted', { meta: { resourceType: 'User', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"41"' } });
      await store().create('User', input, USER_CONTEXT);
      const versions: string[] = [];
      for (const title of ['a', 'a', 'b']) {
        const done = await assign('User', input.id, assignment({ title }));
        versions.push(done.ok ? done.resource.meta.version : done.reason);
      }
      expect(versions).toEqual(['W/"42"', 'W/"42"', 'W/"43"']);
    });

    it('honours expectedVersion (If-Match) before anything else', async () => {
      const input = user('guarded', { title: 'Old' });
      await store().create('User', input, USER_CONTEXT);
      expect(await assign('User', input.id, assignment({ title: 'New' }, { expectedVersion: 'W/"7"' }))).toEqual({ ok: false, reason: 'versionMismatch' });
      // Even when the values are already there.
      expect(await assign('User', input.id, assignment({ title: 'Old' }, { expectedVersion: 'W/"7"' }))).toEqual({ ok: false, reason: 'versionMismatch' });
      expect(await store().get('User', input.id)).toEqual(input);
      const done = await assign('User', input.id, assignment({ title: 'New' }, { expectedVersion: 'W/"1"' }));
      expect(done.ok && [done.changed, done.resource['title'], done.resource.meta.version]).toEqual([true, 'New', 'W/"2"']);
    });

    it('an unknown id, another resource type or another tenant is notFound', async () => {
      const input = user('found-once');
      await store().create('User', input, USER_CONTEXT);
      expect(await assign('User', 'no-such-id', assignment({ title: 'x' }))).toEqual({ ok: false, reason: 'notFound' });
      expect(await assign('Group', input.id, assignment({ title: 'x' }))).toEqual({ ok: false, reason: 'notFound' });
      expect(await assign('User', input.id, assignment({ title: 'x' }), inTenant('other'))).toEqual({ ok: false, reason: 'notFound' });
      expect(await store().get('User', input.id)).toEqual(input);
    });

    it('a version that is not a counter becomes freshVersion, then counts on', async () => {
      const input = user('imported', { meta: { resourceType: 'User', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"e0f1-uuid"' } });
      await store().create('User', input, USER_CONTEXT);
      const done = await assign('User', input.id, assignment({ title: 'x' }));
      expect(done.ok && done.resource.meta.version).toBe('W/"1764140000000"');
      const next = await assign('User', input.id, assignment({ title: 'y' }));
      expect(next.ok && next.resource.meta.version).toBe('W/"1764140000001"');
      expect((await store().get('User', input.id))?.meta.version).toBe('W/"1764140000001"');
    });

    it('never writes a result longer than maxResourceBytes: it declines', async () => {
      const input = user('bounded', { title: 'short' });
      await store().create('User', input, USER_CONTEXT);
      const limit = JSON.stringify(input).length + 10;
      expect(await assign('User', input.id, assignment({ title: 'x'.repeat(200) }, { maxResourceBytes: limit }))).toEqual({ ok: false, reason: 'declined' });
      expect(await store().get('User', input.id)).toEqual(input);
    });

    it('keeps a group\'s members', async () => {
      const g = group('Renamed later', undefined, [member('u-1'), member('u-2')]);
      await store().create('Group', g, NO_UNIQUE);
      const done = await assign('Group', g.id, assignment({ displayName: 'Renamed' }));
      const after = expected(g, { displayName: 'Renamed' }, 'W/"2"');
      expect(done).toEqual({ ok: true, resource: after, changed: true });
      expect(await store().get('Group', g.id)).toEqual(after);
    });

    it('concurrent writers lose no update: every value lands, one version per change', async () => {
      const input = user('contended');
      await store().create('User', input, USER_CONTEXT);
      const names = ['displayName', 'nickName', 'title', 'userType', 'preferredLanguage', 'locale', 'timezone', 'profileUrl'];
      const results = await Promise.all([
        ...names.map((name) => assign('User', input.id, assignment({ [name]: `v-${name}` }))),
        ...['givenName', 'familyName', 'middleName'].map((sub) => assign('User', input.id, assignment({ name: { [sub]: `v-${sub}` } }))),
      ]);
      expect(results.every((result) => result.ok && result.changed)).toBe(true);
      const versions = results.map((result) => (result.ok ? result.resource.meta.version : ''));
      expect(new Set(versions).size).toBe(results.length);
      const stored = await store().get('User', input.id);
      expect(stored?.meta.version).toBe(`W/"${results.length + 1}"`);
      for (const name of names) expect(stored?.[name]).toBe(`v-${name}`);
      expect(stored?.['name']).toEqual({ givenName: 'v-givenName', familyName: 'v-familyName', middleName: 'v-middleName' });
    });

    describe('previous (wantPrevious): what the assigned attributes held before the step', () => {
      const wanting = (values: StoreAssignment['values'], extra: Partial<StoreAssignment> = {}) => assignment(values, { wantPrevious: true, ...extra });

      /** The resource an assign returned, with `previous` put back: the resource as it was. */
      const rebuilt = (resource: ScimResource, values: StoreAssignment['values'], previous: Readonly<Record<string, unknown>>): Record<string, unknown> => {
        const out: Record<string, unknown> = { ...resource };
        for (const key of [...Object.keys(values), 'meta']) {
          if (Object.prototype.hasOwnProperty.call(previous, key)) out[key] = previous[key];
          else delete out[key];
        }
        return out;
      };

      it('a changed value: the old values, a complex attribute\'s whole object, and meta; put back, the resource as it was', async () => {
        const input = user('previous-changed', { displayName: 'Before', name: { familyName: 'F', givenName: 'G' }, active: true });
        await store().create('User', input, USER_CONTEXT);
        const stored = await store().get('User', input.id);
        const values = { displayName: 'After', name: { givenName: 'H' } };
        const done = await assign('User', input.id, wanting(values));
        expect(done.ok && done.changed).toBe(true);
        if (!done.ok) return;
        expect(done.previous).toEqual({ displayName: 'Before', name: { familyName: 'F', givenName: 'G' }, meta: input.meta });
        expect(rebuilt(done.resource, values, done.previous ?? {})).toEqual(stored);
      });

      it('unchanged: what the resource holds', async () => {
        const input = user('previous-same', { displayName: 'Same', name: { givenName: 'G' } });
        await store().create('User', input, USER_CONTEXT);
        const done = await assign('User', input.id, wanting({ displayName: 'Same', name: { givenName: 'G' } }));
        expect(done).toEqual({ ok: true, resource: input, changed: false, previous: { displayName: 'Same', name: { givenName: 'G' }, meta: input.meta } });
      });

      it('an attribute the resource did not have is absent from previous', async () => {
        const input = user('previous-absent', { displayName: 'D' });
        await store().create('User', input, USER_CONTEXT);
        const stored = await store().get('User', input.id);
        const values = { title: 'T', name: { givenName: 'G' } };
        const done = await assign('User', input.id, wanting(values));
        expect(done.ok && done.previous).toEqual({ meta: input.meta });
        if (!done.ok) return;
        expect(Object.keys(done.previous ?? {})).toEqual(['meta']);
        expect(rebuilt(done.resource, values, done.previous ?? {})).toEqual(stored);
      });

      it('a sub-attribute a complex attribute did not have: the object as it was, without it', async () => {
        const input = user('previous-sub-absent', { name: { familyName: 'F' } });
        await store().create('User', input, USER_CONTEXT);
        const stored = await store().get('User', input.id);
        const values = { name: { givenName: 'G' } };
        const done = await assign('User', input.id, wanting(values));
        expect(done.ok && done.resource['name']).toEqual({ familyName: 'F', givenName: 'G' });
        if (!done.ok) return;
        expect(done.previous?.['name']).toEqual({ familyName: 'F' });
        expect(rebuilt(done.resource, values, done.previous ?? {})).toEqual(stored);
      });

      it('an If-Match mismatch gives no previous; without wantPrevious there is none', async () => {
        const input = user('previous-guarded', { title: 'Old' });
        await store().create('User', input, USER_CONTEXT);
        expect(await assign('User', input.id, wanting({ title: 'New' }, { expectedVersion: 'W/"7"' }))).toEqual({ ok: false, reason: 'versionMismatch' });
        const plain = await assign('User', input.id, assignment({ title: 'New' }));
        expect(plain.ok && 'previous' in plain).toBe(false);
        const guarded = await assign('User', input.id, wanting({ title: 'Newer' }, { expectedVersion: 'W/"2"' }));
        expect(guarded.ok && guarded.previous).toEqual({ title: 'New', meta: { ...input.meta, lastModified: LATER, version: 'W/"2"' } });
      });

      it('concurrent writers: each previous is the version just before its own', async () => {
        const input = user('previous-contended');
        await store().create('User', input, USER_CONTEXT);
        const names = ['displayName', 'nickName', 'title', 'userType', 'preferredLanguage', 'locale'];
        const results = await Promise.all(names.map((name) => assign('User', input.id, wanting({ [name]: `v-${name}` }))));
        const pairs = results.map((result) => (result.ok ? [(result.previous?.['meta'] as { version?: string } | undefined)?.version, result.resource.meta.version] : []));
        for (const [before, after] of pairs) expect(Number(/\d+/.exec(after ?? '')?.[0]) - Number(/\d+/.exec(before ?? '')?.[0])).toBe(1);
        expect(new Set(pairs.map(([before]) => before)).size).toBe(names.length);
        for (const result of results) expect(result.ok && Object.keys(result.previous ?? {})).toEqual(['meta']);
      });
    });

    it('a replace from a version an assignment moved on is a versionMismatch', async () => {
      const input = user('raced', { title: 'A' });
      await store().create('User', input, USER_CONTEXT);
      await assign('User', input.id, assignment({ title: 'B' }));
      expect(await store().replace('User', input.id, revise(input, { title: 'C' }, 'W/"2"'), 'W/"1"', USER_CONTEXT)).toEqual({ ok: false, reason: 'versionMismatch' });
      expect((await store().get('User', input.id))?.['title']).toBe('B');
    });
  });
}
