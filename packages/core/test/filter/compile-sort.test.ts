import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSort, parseAttrPath, sortResources, type SortOrder } from '../../src/filter/index.js';
import type { ResourceModel } from '../../src/schema/index.js';
import type { ScimResource } from '../../src/schema/scim-resource.js';
import { device, deviceModel, ENTERPRISE_URN, group, groupModel, user, userModel } from './filter-fixtures.js';

type Models = ResourceModel | readonly ResourceModel[];

function sorted(sortBy: string, order: SortOrder | undefined, resources: readonly ScimResource[], models: Models = userModel): string[] {
  const path = parseAttrPath(sortBy);
  if (!path.ok) throw new Error(path.error.detail);
  const compare = compileSort(path.value, order, models);
  if (!compare.ok) throw new Error(compare.error.detail);
  return [...resources].sort(compare.value).map((r) => r.id);
}

function refused(sortBy: string, models: Models = userModel): string {
  const path = parseAttrPath(sortBy);
  if (!path.ok) throw new Error(path.error.detail);
  const compare = compileSort(path.value, 'ascending', models);
  expect(compare.ok).toBe(false);
  if (compare.ok) return '';
  expect(compare.error.status).toBe(400);
  expect(compare.error.scimType).toBe('invalidPath');
  return compare.error.detail;
}

const named = (id: string, attributes: Record<string, unknown>): ScimResource => ({ ...user(attributes), id });

describe('compileSort (RFC 7644 §3.4.2.3)', () => {
  it('orders strings ignoring case when caseExact is false, ascending by default', () => {
    const list = [named('c', { userName: 'charlie' }), named('a', { userName: 'Alice' }), named('b', { userName: 'bob' })];
    expect(sorted('userName', 'ascending', list)).toEqual(['a', 'b', 'c']);
    expect(sorted('userName', undefined, list)).toEqual(['a', 'b', 'c']);
    expect(sorted('USERNAME', 'descending', list)).toEqual(['c', 'b', 'a']);
  });

  it('orders caseExact strings by code unit (upper case first)', () => {
    const list = [device({ serial: 'b' }), device({ serial: 'B' }), device({ serial: 'a' })].map((d, i) => ({ ...d, id: `${i}` }));
    expect(sorted('serial', 'ascending', list, deviceModel)).toEqual(['1', '2', '0']);
  });

  it('orders numbers numerically, dateTimes as instants, booleans false first', () => {
    const list = [
      { ...device({ age: 10, seen: '2024-01-01T12:00:00+02:00', enabled: true }), id: 'x' },
      { ...device({ age: 9, seen: '2024-01-01T11:00:00Z', enabled: false }), id: 'y' },
      { ...device({ age: 100, seen: '2024-01-01T09:00:00Z', enabled: true }), id: 'z' },
    ];
    expect(sorted('age', 'ascending', list, deviceModel)).toEqual(['y', 'x', 'z']);
    expect(sorted('seen', 'ascending', list, deviceModel)).toEqual(['z', 'x', 'y']);
    expect(sorted('enabled', 'ascending', list, deviceModel)).toEqual(['y', 'x', 'z']);
  });

  it('sorts missing values last ascending and first descending', () => {
    const list = [named('none', {}), named('b', { title: 'b' }), named('null', { title: null }), named('a', { title: 'a' })];
    expect(sorted('title', 'ascending', list)).toEqual(['a', 'b', 'none', 'null']);
    expect(sorted('title', 'descending', list)).toEqual(['none', 'null', 'b', 'a']);
  });

  it('sorts a multi-valued attribute by its primary value, else its first', () => {
    const list = [
      named('p', { emails: [{ value: 'z@x' }, { value: 'a@x', primary: true }] }),
      named('f', { emails: [{ value: 'm@x' }, { value: 'b@x' }] }),
      named('n', { emails: [] }),
      named('e', { emails: [{ value: 'c@x', primary: false }] }),
    ];
    expect(sorted('emails.value', 'ascending', list)).toEqual(['p', 'e', 'f', 'n']);
    expect(sorted('emails', 'ascending', list)).toEqual(['p', 'e', 'f', 'n']);
    expect(sorted('emails.value', 'descending', list)).toEqual(['n', 'f', 'e', 'p']);
    expect(sorted('tags', 'ascending', [device({ tags: ['b', 'a'] }), device({ tags: ['a'] })].map((d, i) => ({ ...d, id: `${i}` })), deviceModel)).toEqual([
      '1',
      '0',
    ]);
  });

  it('sorts by sub-attributes and URN-qualified extension attributes', () => {
    const list = [
      named('2', { name: { familyName: 'Zed' }, [ENTERPRISE_URN]: { employeeNumber: '2', manager: { displayName: 'b' } } }),
      named('1', { name: { familyName: 'adams' }, [ENTERPRISE_URN]: { employeeNumber: '1', manager: { displayName: 'A' } } }),
    ];
    expect(sorted('name.familyName', 'ascending', list)).toEqual(['1', '2']);
    expect(sorted(`${ENTERPRISE_URN}:employeeNumber`, 'descending', list)).toEqual(['2', '1']);
    expect(sorted(`${ENTERPRISE_URN}:manager.displayName`, 'ascending', list)).toEqual(['1', '2']);
    expect(sorted('meta.created', 'ascending', list)).toEqual(['2', '1']);
  });

  it('is stable: equal keys keep their order, in both directions', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'A', 'b', undefined), { maxLength: 40 }), fc.constantFrom<SortOrder>('ascending', 'descending'), (names, order) => {
        const list = names.map((n, i) => named(`${i}`, n === undefined ? {} : { userName: n }));
        const out = sorted('userName', order, list);
        const key = (id: string) => list[Number(id)]?.userName;
        for (let i = 1; i < out.length; i++) {
          const [prev, cur] = [out[i - 1] as string, out[i] as string];
          const [kp, kc] = [key(prev), key(cur)];
          const sameKey = (typeof kp === 'string' ? kp.toLowerCase() : kp) === (typeof kc === 'string' ? kc.toLowerCase() : kc);
          if (sameKey) expect(Number(prev)).toBeLessThan(Number(cur));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('is a consistent comparator (antisymmetric, zero on itself)', () => {
    const path = parseAttrPath('displayName');
    if (!path.ok) throw new Error('unreachable');
    const compare = compileSort(path.value, 'descending', userModel);
    if (!compare.ok) throw new Error(compare.error.detail);
    const cmp = compare.value;
    fc.assert(
      fc.property(fc.option(fc.string(), { nil: undefined }), fc.option(fc.string(), { nil: undefined }), (x, y) => {
        const a = user(x === undefined ? {} : { displayName: x });
        const b = user(y === undefined ? {} : { displayName: y });
        expect(cmp(a, a)).toBe(0);
        expect(Math.sign(cmp(a, b)) + Math.sign(cmp(b, a))).toBe(0);
      }),
    );
  });

  it('reads each type’s own attribute in a multi-type sort, missing where a type lacks it', () => {
    const list = [
      { ...group({ displayName: 'beta' }), id: 'g' },
      { ...user({ displayName: 'Alpha', userName: 'zz' }), id: 'u' },
      { ...user({ userName: 'aa' }), id: 'v' },
    ];
    expect(sorted('displayName', 'ascending', list, [userModel, groupModel])).toEqual(['u', 'g', 'v']);
    expect(sorted('userName', 'ascending', list, [userModel, groupModel])).toEqual(['v', 'u', 'g']);
    expect(sorted('userName', 'descending', list, [userModel, groupModel])).toEqual(['g', 'u', 'v']);
  });

  it('refuses unknown, never-returned and complex attributes with invalidPath', () => {
    expect(refused('nope')).toBe("Invalid sortBy: unknown attribute 'nope'");
    expect(refused('nope', [userModel, groupModel])).toBe("Invalid sortBy: unknown attribute 'nope' (not an attribute of User or Group)");
    expect(refused('name.nope')).toMatch(/unknown attribute 'name.nope'/);
    expect(refused('password')).toBe("Invalid sortBy: 'password' is never returned and cannot be sorted on");
    expect(refused('name')).toBe("Invalid sortBy: 'name' is a complex attribute; sort by one of its sub-attributes");
    expect(refused('parts', deviceModel)).toMatch(/complex attribute/);
    const proto = compileSort({ attr: '__proto__' }, 'ascending', userModel);
    expect(proto.ok).toBe(false);
  });

  it('never throws on resources with odd shapes', () => {
    const odd = [
      named('1', { emails: 'x' }),
      named('2', { emails: [null, 5] }),
      named('3', { name: 'n' }),
      named('4', { userName: 7 }),
      { id: '5' } as unknown as ScimResource,
    ];
    expect(() => sorted('emails.value', 'ascending', odd)).not.toThrow();
    expect(() => sorted('name.givenName', 'descending', odd)).not.toThrow();
    expect(() => sorted('userName', 'ascending', odd, [userModel, groupModel])).not.toThrow();
  });
});

describe('sortResources (decorate-sort-undecorate)', () => {
  const shuffled = (n: number) => Array.from({ length: n }, (_, i) => ((i * 7919) % n)).map((k, i) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    id: `u${i}`,
    userName: `user${k % 50}`,
    displayName: k % 3 === 0 ? undefined : `Name ${k % 17}`,
    meta: { resourceType: 'User', created: '2020-01-01T00:00:00Z', lastModified: new Date(Date.UTC(2020, 0, 1) + (k % 40) * 3_600_000).toISOString().replace('.000Z', k % 2 ? 'Z' : '+00:00'), version: 'W/"1"' },
  })) as unknown as ScimResource[];

  it.each(['displayName', 'meta.lastModified', 'userName'])('orders by %s exactly as a stable sort with the comparator does, both ways', (attr) => {
    const users = shuffled(500);
    for (const order of ['ascending', 'descending'] as const) {
      const path = parseAttrPath(attr);
      if (!path.ok) throw new Error(path.error.detail);
      const compare = compileSort(path.value, order, userModel);
      if (!compare.ok) throw new Error(compare.error.detail);
      const expected = [...users].sort(compare.value).map((u) => u.id);
      expect(sortResources(users, compare.value).map((u) => u.id)).toEqual(expected);
    }
  });

  it('sorts with any other comparator as Array.prototype.sort does, without touching the input', () => {
    const users = shuffled(50);
    const ids = users.map((u) => u.id);
    const byId = (a: ScimResource, b: ScimResource) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    expect(sortResources(users, byId).map((u) => u.id)).toEqual([...ids].sort());
    expect(users.map((u) => u.id)).toEqual(ids);
  });
});

describe('a comparator derived from a compiled one', () => {
  it('compareWhile sorts like its plain version, and a refused budget stops comparing', async () => {
    const { compareWhile } = await import('../../src/filter/compile-sort.js');
    const path = parseAttrPath('meta.lastModified');
    if (!path.ok) throw new Error(path.error.detail);
    const compare = compileSort(path.value, 'descending', userModel);
    if (!compare.ok) throw new Error(compare.error.detail);
    const users = Array.from({ length: 200 }, (_, i) => ({ ...user(), id: `u${i}`, meta: { ...user().meta, lastModified: new Date(Date.UTC(2021, 0, 1) + ((i * 37) % 200) * 60_000).toISOString() } })) as ScimResource[];
    let comparisons = 0;
    const counted = compareWhile(compare.value, () => ++comparisons > 0);
    expect(sortResources(users, counted).map((u) => u.id)).toEqual([...users].sort(compare.value).map((u) => u.id));
    expect(comparisons).toBeGreaterThan(0);
    let left = 10;
    const refused = compareWhile(compare.value, () => left-- > 0);
    expect(sortResources(users, refused)).toHaveLength(200);
    expect(left).toBeLessThan(0);
  });
});
