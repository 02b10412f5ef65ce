import { describe, expect, it } from 'vitest';
import type { ScimResource } from '../../src/index.js';
import { overServedForm } from '../../src/server/location-query.js';
import type { TypeQuery } from '../../src/server/query-resources.js';
import { call, post, server, user } from './helpers.js';

const resource = (id: string): ScimResource => ({ schemas: [], id, meta: { resourceType: 'User', created: '', lastModified: '', version: 'W/"1"' } });

describe('a query on meta.location', () => {
  it('locates each resource once per query, not once per comparison', () => {
    let located = 0;
    const locate = (r: ScimResource): ScimResource => {
      located++;
      return { ...r, meta: { ...r.meta, location: `https://x/Users/${r.id}` } };
    };
    const byLocation = (a: ScimResource, b: ScimResource): number => (a.meta.location ?? '').localeCompare(b.meta.location ?? '');
    const query: TypeQuery = { matches: (r) => (r.meta.location ?? '').includes('/Users/'), compare: byLocation };
    const served = overServedForm(query, locate);
    const resources = Array.from({ length: 2_000 }, (_, i) => resource(String((i * 7919) % 2_000).padStart(4, '0')));
    const kept = resources.filter(served.matches).sort(served.compare);
    expect(kept.map((r) => r.id)).toEqual([...resources.map((r) => r.id)].sort());
    // 2,000 resources sorted make about 20,000 comparisons; each resource is located once.
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
