import { describe, expect, it } from 'vitest';
import { createMemoryStore, groupResourceType, userResourceType, type ScimResource } from '../../src/index.js';
import { call, post, server, USER } from './helpers.js';

const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const meta = (resourceType: string) => ({ resourceType, created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' });

function users(n: number): ScimResource[] {
  return Array.from({ length: n }, (_, i) => ({
    schemas: [USER],
    id: `u${i}`,
    userName: `user${i}@example.com`,
    emails: [
      { value: `user${i}@example.com`, type: 'work', primary: true },
      { value: `user${i}@home.example`, type: 'home' },
    ],
    meta: meta('User'),
  }));
}

function group(id: string, members: number): ScimResource {
  return { schemas: [GROUP], id, displayName: id, members: Array.from({ length: members }, (_, i) => ({ value: `u${i}` })), meta: meta('Group') };
}

/** 385 `emails.value co` terms: the 9.9 KB filter that blocked the event loop for 2.8 s over 50,000 users. */
const heavyFilter = Array.from({ length: 385 }, (_, i) => `emails.value co "x${i}"`).join(' or ');

const search = (body: Record<string, unknown>) => post('/Users/.search', { schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'], ...body });

describe('limits.maxRequestWork', () => {
  it('refuses a filter whose terms × values visited exceed the budget with 400 tooMany naming the limit', async () => {
    expect(heavyFilter.length).toBeGreaterThan(9_000);
    // 385 terms × 2 emails × 5,000 users = 3,850,000 values visited, over the default 2,000,000.
    const target = server({ store: createMemoryStore({ initial: { User: users(5_000) } }) });
    const reply = await call(target, search({ filter: heavyFilter }));
    expect(reply.status).toBe(400);
    expect(reply.body['scimType']).toBe('tooMany');
    expect(reply.body['detail']).toContain('limits.maxRequestWork');
    // The same filter over fewer users fits; so does what Entra and Okta send, over every user.
    const small = server({ store: createMemoryStore({ initial: { User: users(1_000) } }) });
    expect((await call(small, search({ filter: heavyFilter }))).status).toBe(200);
    for (const filter of ['userName eq "user42@example.com"', 'emails[type eq "work"].value eq "user7@example.com"', 'externalId eq "x"', 'emails co "home"']) {
      expect((await call(target, { method: 'GET', path: '/Users', query: { filter } })).status, filter).toBe(200);
    }
  });

  it('charges sort comparisons', async () => {
    const store = () => createMemoryStore({ initial: { User: users(1_000) } });
    // 1,000 users sort in about 9,000 comparisons.
    const tight = server({ store: store(), limits: { maxRequestWork: 2_000 } });
    const refused = await call(tight, { method: 'GET', path: '/Users', query: { sortBy: 'userName', count: '1' } });
    expect(refused.status).toBe(400);
    expect(refused.body['scimType']).toBe('tooMany');
    expect((await call(tight, { method: 'GET', path: '/Users', query: { count: '1' } })).status).toBe(200);
    const roomy = server({ store: store(), limits: { maxRequestWork: 50_000 } });
    const sorted = await call(roomy, { method: 'GET', path: '/Users', query: { sortBy: 'userName', sortOrder: 'descending', count: '2' } });
    expect(sorted.body['Resources'].map((r: { userName: string }) => r.userName)).toEqual(['user9@example.com', 'user99@example.com']);
  });

  it('charges each value presented: a page of large groups is refused unless members are left out', async () => {
    const store = createMemoryStore({ initial: { Group: Array.from({ length: 5 }, (_, i) => group(`g${i}`, 1_000)) } });
    const target = server({ resourceTypes: [groupResourceType], store, limits: { maxRequestWork: 3_000 } });
    const refused = await call(target, { method: 'GET', path: '/Groups' });
    expect(refused.status).toBe(400);
    expect(refused.body['scimType']).toBe('tooMany');
    const lean = await call(target, { method: 'GET', path: '/Groups', query: { excludedAttributes: 'members' } });
    expect(lean.status).toBe(200);
    expect(lean.body['Resources']).toHaveLength(5);
  });

  it('covers the server-root search', async () => {
    const store = createMemoryStore({ initial: { User: users(500), Group: [group('g', 10)] } });
    const target = server({ resourceTypes: [userResourceType, groupResourceType], store, limits: { maxRequestWork: 10_000, rootSearchMaxResults: 10_000 } });
    const body = { schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'] };
    const many = Array.from({ length: 20 }, (_, i) => `emails.value co "x${i}"`).join(' or ');
    // 20 terms × 2 emails × 500 users = 20,000 > 10,000.
    const refused = await call(target, post('/.search', { ...body, filter: many }));
    expect(refused.status).toBe(400);
    expect(refused.body['detail']).toContain('limits.maxRequestWork');
    expect((await call(target, post('/.search', { ...body, filter: 'userName eq "user1@example.com"' }))).status).toBe(200);
  });

  it('is configurable and must be a positive integer', () => {
    expect(() => server({ limits: { maxRequestWork: 0 } })).toThrow(/maxRequestWork/);
  });
});
