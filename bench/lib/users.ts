/** Deterministic test data: the same users on every run (mulberry32 PRNG). */
import type { ScimResource } from '../../packages/core/src/index.js';

export const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

export function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = ['Barbara', 'John', 'Ana', 'Wei', 'Fatima', 'Lars', 'Smith', 'Priya', 'Kofi', 'Zoë'];
const LAST = ['Jensen', 'Smith', 'Garcia', 'Chen', 'Okafor', 'Nielsen', 'Silva', 'Kowalski', 'Smithers', 'Ng'];
const DOMAINS = ['example.com', 'example.org', 'contoso.com', 'EXAMPLE.COM'];
const DEPARTMENTS = ['Sales', 'Engineering', 'Support', 'sales'];

/** `count` stored users (id, meta, emails, sometimes a title and the enterprise extension). */
export function generateUsers(count: number, seed = 42): ScimResource[] {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  return Array.from({ length: count }, (_, i) => {
    const first = pick(FIRST);
    const last = pick(LAST);
    const created = new Date(Date.UTC(2020, 0, 1) + Math.floor(random() * 5 * 365 * 86_400_000)).toISOString();
    const emails = [{ value: `${first}.${last}${i}@${pick(DOMAINS)}`.toLowerCase(), type: pick(['work', 'home']), primary: true }];
    if (random() < 0.5) emails.push({ value: `${first}${i}@${pick(DOMAINS)}`, type: pick(['work', 'home', 'other']), primary: false });
    const user: ScimResource = {
      schemas: [USER],
      id: `id-${i}`,
      externalId: `ext-${i}`,
      userName: `user${i}@example.com`,
      name: { givenName: first, familyName: last },
      displayName: `${first} ${last}`,
      active: random() < 0.8,
      emails,
      meta: { resourceType: 'User', created, lastModified: created, version: `W/"${i}"` },
    };
    if (random() < 0.3) user.title = pick(['Engineer', 'Manager', 'Tour Guide']);
    if (random() < 0.5) {
      user.schemas = [USER, ENTERPRISE];
      user[ENTERPRISE] = { department: pick(DEPARTMENTS), employeeNumber: `${i}` };
    }
    return user;
  });
}

/** A typical stored user (RFC 7643 §8.2 shaped, Entra/Okta attributes). */
export function typicalUser(): ScimResource {
  return {
    schemas: [USER, ENTERPRISE],
    id: '2819c223-7f76-453a-919d-413861904646',
    externalId: '701984',
    userName: 'bjensen@example.com',
    name: { formatted: 'Ms. Barbara J Jensen, III', familyName: 'Jensen', givenName: 'Barbara' },
    displayName: 'Babs Jensen',
    active: true,
    emails: [
      { value: 'bjensen@example.com', type: 'work', primary: true },
      { value: 'babs@jensen.org', type: 'home' },
    ],
    phoneNumbers: [{ value: '555-555-5555', type: 'work' }],
    [ENTERPRISE]: { employeeNumber: '701984', department: 'Tour Operations' },
    meta: { resourceType: 'User', created: '2010-01-23T04:56:22Z', lastModified: '2011-05-13T04:42:34Z', version: 'W/"1"' },
  };
}

export function groupWith(members: number): ScimResource {
  return {
    schemas: [GROUP],
    id: 'group-1',
    displayName: 'Everyone',
    members: Array.from({ length: members }, (_, i) => ({ value: `member-${i}`, $ref: `https://example.com/v2/Users/member-${i}` })),
    meta: { resourceType: 'Group', created: '2010-01-23T04:56:22Z', lastModified: '2011-05-13T04:42:34Z', version: 'W/"1"' },
  };
}
