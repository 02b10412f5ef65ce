import { describe, expect, it } from 'vitest';
import type { ScimResource } from '../../src/index.js';
import { overServedForm } from '../../src/server/query/location-query.js';
import { queryResources, type TypeQuery } from '../../src/server/query/query-resources.js';
import type { ServedType, ServerContext } from '../../src/server/config/server-context.js';
import type { ScimStore } from '../../src/store/scim-store.js';
import { call, post, server, user } from './helpers.js';

const resource = (id: string): ScimResource => ({ schemas: [], id, meta: { resourceType: 'User', created: '', lastModified: '', version: 'W/"1"' } });

describe('a query on meta.location', () => {
  it('locates each resource once per query, not once per comparison', async () => {
    let located = 0;
    const locate = (r: ScimResource): ScimResource => {
      located++;
      return { ...r, meta: { ...r.meta, location: `https://x/Users/${r.id}` } };
    };
    const resources = Array.from({ length: 2_000 }, (_, i) => resource(String((i * 7919) % 2_000).padStart(4, '0')));
    const store = { capabilities: {}, query: async () => ({ totalResults: resources.length, resources }) } as unknown as ScimStore;
    const type = { model: { definition: { name: 'User' }, facts: () => undefined } } as unknown as ServedType;
    const byLocation = (a: ScimResource, b: ScimResource): number => (a.meta.location ?? '').localeCompare(b.meta.location ?? '');
    let compared = 0;
    const query: TypeQuery = {
      matches: (r) => (r.meta.location ?? '').includes('/Users/'),
      compare: (a, b) => (compared++, byLocation(a, b)),
      page: { startIndex: 1, count: 3 },
    };
    const result = await queryResources({ store } as unknown as ServerContext, type, overServedForm(query, locate), {});
    expect(result.totalResults).toBe(2_000);
    expect(result.resources.map((r) => r.meta.location)).toEqual(['https://x/Users/0000', 'https://x/Users/0001', 'https://x/Users/0002']);
    // 2,000 resources sorted make about 20,000 comparisons; each resource is located once.
    expect(compared).toBeGreaterThan(10_000);
    expect(located).toBe(2_000);
  });

  it('sorts and filters on meta.location through the server', async () => {
    const target = server({ baseUrl: 'https://idp.example.com/scim/v2' });
    for (const name of ['c', 'a', 'b']) expect((await call(target, post('/Users', user(name)))).status).toBe(201);
    const sorted = await call(target, { method: 'GET', path: '/Users', query: { sortBy: 'meta.location', filter: 'meta.location sw "https://idp.example.com/"' } });
    expect(sorted.status).toBe(200);
    const locations = (sorted.body['Resources'] as { meta: { location: string } }[]).map((r) => r.meta.location);
    expect(locations).toHaveLength(3);
    expect(locations).toEqual([...locations].sort());
  });
});
