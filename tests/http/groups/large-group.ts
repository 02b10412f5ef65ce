import { URN, type ScimResource } from '@scimkit/core';

/** Member count of the large group (the scale target of issue 9). */
export const LARGE = 100_000;
/** Users actually stored: the members a test reads (the rest of the group's member ids stand for users it never reads). */
export const STORED_USERS = 10;
export const LARGE_GROUP_ID = 'large-group';

const meta = (resourceType: string): ScimResource['meta'] => ({
  resourceType,
  created: '2026-01-01T00:00:00.000Z',
  lastModified: '2026-01-01T00:00:00.000Z',
  version: 'W/"1"',
});

let built: { User: ScimResource[]; Group: ScimResource[] } | undefined;

/**
 * One group of `LARGE` members (`u0`, `u1`, …) and the first `STORED_USERS` of those users, for the
 * memory store's `initial` option, built once per test file (each store clones what it is given).
 * Only the group is large: it is what a PATCH of one member must not copy, validate or scan.
 */
export function largeGroupData(baseUrl: string): { User: ScimResource[]; Group: ScimResource[] } {
  if (built === undefined) {
    const users: ScimResource[] = [];
    for (let i = 0; i < STORED_USERS; i++) users.push({ schemas: [URN.user], id: `u${i}`, userName: `user${i}`, meta: meta('User') });
    const members = [];
    for (let i = 0; i < LARGE; i++) members.push({ value: `u${i}`, $ref: `${baseUrl}/Users/u${i}`, type: 'User', display: `user${i}` });
    built = {
      User: users,
      Group: [
        {
          schemas: [URN.group],
          id: LARGE_GROUP_ID,
          displayName: 'Everyone',
          members,
          meta: meta('Group'),
        },
      ],
    };
  }
  return built;
}
