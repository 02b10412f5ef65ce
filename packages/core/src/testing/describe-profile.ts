import { beforeEach, describe, expect, it } from 'vitest';
import type { ScimResource } from '../schema/scim-resource.js';
import type { ScimStore, WriteContext } from '../store/scim-store.js';
import { cursorWalkMismatch, differentialMismatch, filterArbitrary } from './differential.js';
import { getPath, profileId, profileUser, sampleValue, TEXT_POOL, withUserName } from './profile-resources.js';
import type { StoreProfile } from './store-profile.js';
import { runQuery } from './run-query.js';

const USER: WriteContext = { unique: [{ path: 'userName', caseExact: false }] };
const GROUP: WriteContext = { unique: [{ path: 'displayName', caseExact: false }] };
const POPULATION = 24;

/** fast-check, an optional peer dependency needed only for profiles: loaded when the differential tests run. */
async function fastCheck(): Promise<typeof import('fast-check')> {
  const loaded = (await import('fast-check')) as typeof import('fast-check') & { default?: typeof import('fast-check') };
  return loaded.default ?? loaded;
}

/**
 * The kit for a store with its own schema (`options.profile`): create/get/replace/delete with the
 * store's own versions and ids, compare-and-swap, uniqueness, declared attributes kept, tenants when
 * the store keeps several, and the differential property test against the in-memory evaluator.
 */
export function describeProfile(store: () => ScimStore, profile: StoreProfile, declared: { readonly tenancy: 'multi' | 'single'; readonly versions: 'core' | 'store'; readonly cursor: boolean }): void {
  const user = (index: number, seed = index) => profileUser(profile, index, (_path, type) => (seed % 7 === 3 ? undefined : sampleValue(type, seed + _path.length)));
  // A store that keeps the core's versions gets the next one with each write, as the core gives it.
  const named = (resource: ScimResource, userName: string): ScimResource => {
    const renamed = withUserName(profile, resource, userName);
    if (declared.versions === 'store') return renamed;
    const n = Number(/^W\/"(\d+)"$/.exec(resource.meta.version)?.[1] ?? 0);
    return { ...renamed, meta: { ...resource.meta, version: `W/"${n + 1}"` } };
  };
  const create = async (resource: ScimResource, ctx: WriteContext = USER): Promise<ScimResource> => {
    const created = await store().create(profile.user.definition.name, resource, ctx);
    if (!created.ok) throw new Error(`conformance kit: create failed: ${JSON.stringify(created)}`);
    return created.resource;
  };

  describe('create, get, replace, delete (the store\'s own ids and versions)', () => {
    it('get returns what create returned, with the declared attributes as given', async () => {
      const input = user(1);
      const created = await create(input);
      expect(await store().get('User', created.id)).toEqual(created);
      for (const path of ['userName', ...profile.declared]) {
        const given = getPath(profile.user, input, path);
        if (given !== undefined) expect(getPath(profile.user, created, path), path).toEqual(given);
      }
      expect(typeof created.meta.version).toBe('string');
    });

    it('an unknown id, or one the id column cannot hold, is not found', async () => {
      expect(await store().get('User', profileId(profile))).toBeUndefined();
      expect(await store().get('User', 'not a valid id \u0000')).toBeUndefined();
      expect(await store().delete('User', 'not-a-valid-id')).toEqual({ ok: false, reason: 'notFound' });
      const ghost = user(2);
      expect(await store().replace('User', ghost.id, ghost, 'W/"1"', USER)).toEqual({ ok: false, reason: 'notFound' });
    });

    it('replace with the current version writes and moves the version; a stale one is versionMismatch', async () => {
      const created = await create(user(3));
      const next = named(created, 'renamed@example.com');
      const written = await store().replace('User', created.id, next, created.meta.version, USER);
      expect(written.ok).toBe(true);
      if (!written.ok) return;
      expect(written.resource.userName).toBe('renamed@example.com');
      expect(written.resource.meta.version).not.toBe(created.meta.version);
      expect(await store().get('User', created.id)).toEqual(written.resource);
      expect(await store().replace('User', created.id, named(next, 'lost@example.com'), created.meta.version, USER)).toEqual({ ok: false, reason: 'versionMismatch' });
      expect((await store().get('User', created.id))?.userName).toBe('renamed@example.com');
    });

    it('of parallel replaces holding one version exactly one succeeds', async () => {
      const created = await create(user(4));
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => store().replace('User', created.id, named(created, `w${i}@example.com`), created.meta.version, USER)),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok && r.reason === 'versionMismatch')).toHaveLength(11);
    });

    it('delete with a stale version is refused, with the current one deletes', async () => {
      const created = await create(user(5));
      expect(await store().delete('User', created.id, 'W/"0"')).toEqual({ ok: false, reason: 'versionMismatch' });
      expect(await store().delete('User', created.id, created.meta.version)).toEqual({ ok: true });
      expect(await store().get('User', created.id)).toBeUndefined();
      expect(await store().delete('User', created.id)).toEqual({ ok: false, reason: 'notFound' });
    });
  });

  describe('uniqueness', () => {
    it('userName is unique ignoring case and Unicode normalization', async () => {
      await create(named(user(6), 'Jos\u00e9@example.com'));
      expect(await store().create('User', named(user(7), 'JOSE\u0301@EXAMPLE.COM'), USER)).toMatchObject({ ok: false, reason: 'uniqueness', attribute: 'userName' });
    });

    it('of parallel creates of one userName exactly one succeeds', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store().create('User', named(user(100 + i), 'race@example.com'), USER)));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok && r.reason === 'uniqueness')).toHaveLength(19);
    });

    it('a replace may keep its own userName but not take another', async () => {
      const a = await create(user(8));
      const b = await create(user(9));
      expect((await store().replace('User', a.id, named(a, String(a.userName)), a.meta.version, USER)).ok).toBe(true);
      expect(await store().replace('User', b.id, named(b, String(a.userName).toUpperCase()), b.meta.version, USER)).toMatchObject({ ok: false, reason: 'uniqueness' });
    });
  });

  if (declared.tenancy === 'multi') {
    describe('tenants', () => {
      it('keeps tenants apart', async () => {
        const input = user(10);
        const created = await create(input, { ...USER, tenant: 'tenant-a' });
        expect(await store().get('User', created.id, { tenant: 'tenant-b' })).toBeUndefined();
        expect(await store().get('User', created.id)).toBeUndefined();
        expect((await store().create('User', named(user(11), String(input.userName)), { ...USER, tenant: 'tenant-b' })).ok).toBe(true);
        expect((await runQuery(store(), profile.user, {}, { tenant: 'tenant-a' })).totalResults).toBe(1);
      });
    });
  }

  describe('differential: random filters and sorts give what the in-memory evaluator gives', () => {
    let population: ScimResource[] = [];
    beforeEach(async () => {
      population = [];
      for (let i = 0; i < POPULATION; i++) population.push(await create(user(i, i * 5 + 1)));
    });
    const paths = [...new Set(['userName', ...profile.declared, 'id', 'meta.created', 'meta.lastModified', 'meta.resourceType', 'nickName', 'emails.value', 'emails.type', 'name.middleName'])];

    it('filters', async () => {
      const fc = await fastCheck();
      await fc.assert(
        fc.asyncProperty(filterArbitrary(fc, profile.user, paths, population), async (filter) => {
          const mismatch = await differentialMismatch(store(), profile.user, { filter });
          if (mismatch !== undefined) throw new Error(mismatch);
        }),
        { numRuns: profile.runs ?? 60 },
      );
    });

    it('sorts and pages', async () => {
      const sortable = paths.filter((p) => !p.includes('['));
      const fc = await fastCheck();
      await fc.assert(
        fc.asyncProperty(
          fc.option(filterArbitrary(fc, profile.user, paths, population), { nil: undefined }),
          fc.constantFrom(...sortable),
          fc.constantFrom('ascending' as const, 'descending' as const),
          fc.option(fc.integer({ min: 1, max: 7 }), { nil: undefined }),
          async (filter, sortBy, sortOrder, count) => {
            const mismatch = await differentialMismatch(store(), profile.user, { ...(filter === undefined ? {} : { filter }), sortBy, sortOrder, ...(count === undefined ? {} : { count }) });
            if (mismatch !== undefined) throw new Error(mismatch);
          },
        ),
        { numRuns: Math.ceil((profile.runs ?? 60) / 2) },
      );
    });

    if (declared.cursor) {
      it('keyset cursors (RFC 9865): forward and backward walks give the sorted list', async () => {
        const sortable = paths.filter((p) => !p.includes('['));
        const fc = await fastCheck();
        await fc.assert(
          fc.asyncProperty(
            fc.option(filterArbitrary(fc, profile.user, paths, population), { nil: undefined }),
            fc.option(fc.constantFrom(...sortable), { nil: undefined }),
            fc.constantFrom('ascending' as const, 'descending' as const),
            fc.integer({ min: 1, max: 9 }),
            async (filter, sortBy, sortOrder, count) => {
              const mismatch = await cursorWalkMismatch(store(), profile.user, { ...(filter === undefined ? {} : { filter }), ...(sortBy === undefined ? {} : { sortBy }), sortOrder, count });
              if (mismatch !== undefined) throw new Error(mismatch);
            },
          ),
          { numRuns: Math.ceil((profile.runs ?? 60) / 3) },
        );
      });
    }

    if (profile.group !== undefined) {
      const groupModel = profile.group;
      it('filters on groups and their members (members.value, members.display, members.type)', async () => {
        const fc = await fastCheck();
        const groups: ScimResource[] = [];
        for (let g = 0; g < 6; g++) {
          const members = population.filter((_, i) => (i + g) % (g + 2) === 0).map((u) => ({ value: u.id, type: 'User', ...(typeof u['displayName'] === 'string' ? { display: u['displayName'] } : {}) }));
          const created = await store().create('Group', { schemas: [groupModel.core.id], id: profileId(profile), displayName: `${TEXT_POOL[g] || 'team'} ${g}`, ...(members.length === 0 ? {} : { members }), meta: { resourceType: 'Group', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' } }, GROUP);
          if (!created.ok) throw new Error(`conformance kit: group create failed: ${JSON.stringify(created)}`);
          groups.push(created.resource);
        }
        const displays = groups.flatMap((g) => ((g['members'] as { display?: string }[] | undefined) ?? []).map((m) => m.display)).filter((d): d is string => typeof d === 'string');
        const ids = population.map((u) => u.id);
        const leaf = fc.oneof(
          fc.constantFrom(...ids).map((id) => `members.value eq "${id}"`),
          fc.constantFrom(...ids).map((id) => `members[value eq "${id}"]`),
          fc.constantFrom(...(displays.length === 0 ? ['nobody'] : displays)).chain((d) => fc.constantFrom(`members.display eq ${JSON.stringify(d)}`, `members.display co ${JSON.stringify(d.slice(1, 4))}`, `members.display sw ${JSON.stringify(d.toUpperCase())}`)),
          fc.constantFrom('members pr', 'members.type eq "User"', 'displayName sw "a"', 'displayName co "2"', 'meta.resourceType eq "Group"', 'members.value pr'),
        );
        const filters = fc.oneof(leaf, fc.tuple(leaf, fc.constantFrom('and', 'or'), leaf).map(([a, op, b]) => `${a} ${op} ${b}`), leaf.map((a) => `not (${a})`));
        await fc.assert(
          fc.asyncProperty(filters, async (filter) => {
            const mismatch = await differentialMismatch(store(), groupModel, { filter });
            if (mismatch !== undefined) throw new Error(mismatch);
          }),
          { numRuns: profile.runs ?? 60 },
        );
      });
    }
  });
}
