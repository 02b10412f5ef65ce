import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, groupResourceType, type ScimResource } from '../../src/index.js';
import { checkResourceSize, ElementSizes } from '../../src/server/write/resource-size.js';
import { StoredVersions } from '../../src/json/stored-versions.js';
import { call, post, server, user } from './helpers.js';

const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const meta = { resourceType: 'Group', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' };
const members = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ value: `m-${from + i}` }));
const group = (id: string, n: number): ScimResource => ({ schemas: [GROUP], id, displayName: id, members: members(n), meta });
const emails = (n: number) => Array.from({ length: n }, (_, i) => ({ value: `u${i}@example.com` }));
const patch = (path: string, ...operations: unknown[]) => ({
  method: 'PATCH',
  path,
  body: JSON.stringify({ schemas: [PATCH_OP], Operations: operations }),
  headers: { 'content-type': 'application/scim+json' },
});
const put = (path: string, body: unknown) => ({ ...post(path, body), method: 'PUT' });
const utf8 = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).byteLength;

describe('checkResourceSize', () => {
  it('measures the exact UTF-8 length of the JSON, escapes included (property)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 }), (resource) => {
        const bytes = utf8(resource);
        expect(checkResourceSize(resource, { maxValuesPerAttribute: 1e9, maxResourceBytes: bytes }).ok).toBe(true);
        expect(checkResourceSize(resource, { maxValuesPerAttribute: 1e9, maxResourceBytes: bytes - 1 }).ok).toBe(false);
      }),
      { numRuns: 150 },
    );
  }, 30_000);

  it('gives the same answer from a stored size and element-level changes as from a full walk (property)', () => {
    const deepFreeze = <T>(value: T): T => {
      if (typeof value === 'object' && value !== null) for (const inner of Object.values(value)) deepFreeze(inner);
      return Object.freeze(value);
    };
    const element = fc.record({ value: fc.string({ unit: 'binary', maxLength: 6 }), tags: fc.array(fc.integer(), { maxLength: 3 }) });
    fc.assert(
      fc.property(fc.array(element, { maxLength: 12 }), fc.array(fc.boolean(), { maxLength: 12 }), fc.array(element, { maxLength: 3 }), (stored, drop, add) => {
        const before = deepFreeze({ id: 'g', members: stored });
        const removed = stored.filter((_, i) => drop[i] === true);
        const next = { id: 'g', members: [...stored.filter((_, i) => drop[i] !== true), ...add] };
        const versions = new StoredVersions();
        versions.register(before);
        const revision = { before, changes: [{ attribute: 'members', added: add, removed }], sizes: new ElementSizes(versions) };
        const bytes = utf8(next);
        for (const limits of [
          { maxValuesPerAttribute: 1e9, maxResourceBytes: bytes },
          { maxValuesPerAttribute: 1e9, maxResourceBytes: bytes - 1 },
          { maxValuesPerAttribute: 2, maxResourceBytes: 1e9 },
        ]) {
          expect(checkResourceSize(next, limits, revision)).toEqual(checkResourceSize(next, limits));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('names the attribute that holds too many values, at any depth', () => {
    const result = checkResourceSize({ x: [{ tags: [1, 2, 3] }] }, { maxValuesPerAttribute: 2, maxResourceBytes: 1e9 });
    expect(result.ok ? undefined : result.error).toEqual({ status: 400, scimType: 'invalidValue', detail: "'x.tags' would hold 3 values; the limit is 2 (limits.maxValuesPerAttribute)" });
  });
});

describe('limits.maxValuesPerAttribute and limits.maxResourceBytes', () => {
  it('refuse create, replace and patch with 400 invalidValue naming the limit; nothing is stored', async () => {
    const target = server({ limits: { maxValuesPerAttribute: 10 } });
    const refused = await call(target, post('/Users', user('a', { emails: emails(11) })));
    expect(refused.status).toBe(400);
    expect(refused.body['scimType']).toBe('invalidValue');
    expect(refused.body['detail']).toBe("'emails' would hold 11 values; the limit is 10 (limits.maxValuesPerAttribute)");
    expect((await call(target, { method: 'GET', path: '/Users' })).body['totalResults']).toBe(0);

    const created = await call(target, post('/Users', user('a', { emails: emails(10) })));
    expect(created.status).toBe(201);
    const at = `/Users/${created.body['id']}`;
    expect((await call(target, put(at, user('a', { emails: emails(11) })))).body['detail']).toContain('limits.maxValuesPerAttribute');
    const patched = await call(target, patch(at, { op: 'add', path: 'emails', value: [{ value: 'more@example.com' }] }));
    expect(patched.status).toBe(400);
    expect(patched.body['detail']).toContain("'emails' would hold 11 values");
    const stored = await call(target, { method: 'GET', path: at });
    expect(stored.body['emails']).toHaveLength(10);
    expect(stored.body['meta']['version']).toBe(created.body['meta']['version']);
  });

  it('refuse a resource over maxResourceBytes, on patch too', async () => {
    const target = server({ limits: { maxResourceBytes: 2_000 } });
    expect((await call(target, post('/Users', user('a', { displayName: 'x'.repeat(2_000) })))).body['detail']).toBe(
      'The resource would be larger than 2000 bytes of JSON (limits.maxResourceBytes)',
    );
    const created = await call(target, post('/Users', user('a', { displayName: 'short' })));
    expect(created.status).toBe(201);
    // Written on every element a value filter selects: a small body can make a large resource.
    const grown = await call(target, patch(`/Users/${created.body['id']}`, { op: 'add', path: 'emails', value: emails(5) }, { op: 'replace', path: 'emails[value co "@"].display', value: 'y'.repeat(500) }));
    expect(grown.status).toBe(400);
    expect(grown.body['detail']).toContain('limits.maxResourceBytes');
  });

  it('default to values generous enough for a 100,000-member group, and refuse growing past 200,000', async () => {
    const store = createMemoryStore({ initial: { Group: [group('big', 99_999), group('full', 200_000)] } });
    // Members stored as sent (membership: false): the limits are under test, not member resolution.
    const target = server({ resourceTypes: [groupResourceType], store, membership: false });
    const added = await call(target, patch('/Groups/big?excludedAttributes=members', { op: 'add', path: 'members', value: [{ value: 'm-new' }] }));
    expect(added.status).toBe(200);
    const refused = await call(target, patch('/Groups/full?excludedAttributes=members', { op: 'add', path: 'members', value: [{ value: 'm-new' }] }));
    expect(refused.status).toBe(400);
    expect(refused.body['detail']).toBe("'members' would hold 200001 values; the limit is 200000 (limits.maxValuesPerAttribute)");
  }, 30_000);

  it('count the bytes of repeated member adds and removes exactly, from the stored size (element-level PATCH)', async () => {
    const stored = group('g', 300);
    const limit = utf8({ ...stored, members: [...members(300), { value: 'm-x1' }, { value: 'm-x2' }] }) + 200;
    const store = createMemoryStore({ initial: { Group: [stored] } });
    const target = server({ resourceTypes: [groupResourceType], store, membership: false, limits: { maxResourceBytes: limit } });
    const member = (op: string, value: string) => call(target, patch('/Groups/g?excludedAttributes=members', { op, path: 'members', value: [{ value }] }));
    // Each round trip leaves the size as it was: a drift in the remembered size would show.
    for (let round = 0; round < 5; round++) {
      expect((await member('add', 'm-x1')).status).toBe(200);
      expect((await member('remove', 'm-x1')).status).toBe(200);
    }
    expect((await member('add', 'm-x1')).status).toBe(200);
    expect((await member('add', 'm-x2')).status).toBe(200);
    const refused = await member('add', 'm-' + 'b'.repeat(300));
    expect(refused.status).toBe(400);
    expect(refused.body['detail']).toBe(`The resource would be larger than ${limit} bytes of JSON (limits.maxResourceBytes)`);
    expect((await member('remove', 'm-x2')).status).toBe(200);
  });

  it('must be positive integers', () => {
    expect(() => server({ limits: { maxValuesPerAttribute: 0 } })).toThrow(/maxValuesPerAttribute/);
    expect(() => server({ limits: { maxResourceBytes: 1.5 } })).toThrow(/maxResourceBytes/);
  });
});
