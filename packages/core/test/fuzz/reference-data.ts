import { createMemoryStore, createScimServer, groupResourceType, userResourceType, type ScimResource, type ScimServer, type ScimStore } from '../../src/index.js';
import { URN, type KnownIds } from './request-arbitraries.js';

const meta = (resourceType: string) => ({ resourceType, created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' });

/** `users` users like an Entra tenant's (name, emails, phone, enterprise extension), `groups` groups over them. */
export function referenceData(users: number, groups: number, largestGroup: number): { User: ScimResource[]; Group: ScimResource[] } {
  const User = Array.from({ length: users }, (_, i): ScimResource => ({
    schemas: [URN.user, URN.enterprise],
    id: `u-${i}`,
    userName: `u${i}@example.com`,
    externalId: `ext-${i}`,
    active: i % 7 !== 0,
    name: { givenName: `Given${i}`, familyName: `Family${i % 97}`, formatted: `Given${i} Family${i % 97}` },
    displayName: `User ${i}`,
    emails: [
      { value: `u${i}@example.com`, type: 'work', primary: true },
      { value: `u${i}@home.example`, type: 'home' },
    ],
    phoneNumbers: [{ value: `+1 555 ${String(i).padStart(4, '0')}`, type: 'mobile' }],
    [URN.enterprise]: { employeeNumber: String(1000 + i), department: `Dept ${i % 13}` },
    meta: meta('User'),
  }));
  const Group = Array.from({ length: groups }, (_, g): ScimResource => ({
    schemas: [URN.group],
    id: `g-${g}`,
    displayName: `Group ${g}`,
    members: Array.from({ length: g === 0 ? Math.min(largestGroup, users) : Math.min(users, 5 + g) }, (_, i) => ({ value: `u-${(i * (g + 1)) % users}`, type: 'User' })),
    meta: meta('Group'),
  }));
  return { User, Group };
}

export function knownIds(data: { User: readonly ScimResource[]; Group: readonly ScimResource[] }): KnownIds {
  const pick = (list: readonly ScimResource[]) => list.filter((_, i) => i < 10 || i % 97 === 0).map((r) => r.id);
  return { users: pick(data.User), groups: pick(data.Group) };
}

/** Every resource of every type, as the store holds them: equal snapshots mean nothing changed. */
export async function snapshot(store: ScimStore): Promise<string> {
  const semantics = { matches: () => true, attribute: () => undefined };
  const parts: string[] = [];
  for (const type of ['User', 'Group']) {
    const { resources } = await store.query(type, { semantics });
    parts.push(JSON.stringify([...resources].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))));
  }
  return parts.join('\n');
}

/** A server over the data set with Users and Groups, every operation; any reported failure is recorded. */
export function fuzzServer(data: { User: ScimResource[]; Group: ScimResource[] }): { server: ScimServer; store: ScimStore; failures: unknown[] } {
  const store = createMemoryStore({ initial: data });
  const failures: unknown[] = [];
  const server = createScimServer({
    resourceTypes: [userResourceType, groupResourceType],
    store,
    logger: { log: (record) => { if (record.level === 'error') failures.push(record); } },
  });
  return { server, store, failures };
}
