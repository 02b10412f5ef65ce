import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createScimClient, patchOps, userFilter } from '@scimkit/client';
import { createScimServer } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFullServerConfig } from '../../full-server/src/index.js';
import { pushUsers, type Person } from '../src/index.js';

const server = createServer(createNodeHandler(createScimServer(createFullServerConfig({ token: 'push-token' })), { basePath: '/scim/v2' }));
let baseUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/scim/v2`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const ada: Person = { email: 'ada@example.com', givenName: 'Ada', familyName: 'Lovelace', department: 'Engines' };
const alan: Person = { email: 'alan@example.com', givenName: 'Alan', familyName: 'Turing' };

describe('pushing users to a downstream SCIM service', () => {
  it('creates, updates, leaves alone and deactivates', async () => {
    const client = createScimClient({ baseUrl, auth: 'push-token' });
    expect(await pushUsers(client, [ada, alan])).toEqual({ created: 2, updated: 0, unchanged: 0, deactivated: 0 });
    expect(await pushUsers(client, [ada, alan])).toEqual({ created: 0, updated: 0, unchanged: 2, deactivated: 0 });

    expect(await pushUsers(client, [{ ...ada, familyName: 'King', department: 'Analytics' }])).toEqual({ created: 0, updated: 1, unchanged: 0, deactivated: 1 });
    const [king] = await client.users.list({ filter: userFilter.eq('userName', ada.email) }).toArray();
    expect(king?.name?.familyName).toBe('King');
    expect(king?.['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User']?.department).toBe('Analytics');
    const [turing] = await client.users.list({ filter: userFilter.eq('userName', alan.email) }).toArray();
    expect(turing?.active).toBe(false);

    // Alan comes back: reactivated.
    expect(await pushUsers(client, [{ ...ada, familyName: 'King', department: 'Analytics' }, alan])).toEqual({ created: 0, updated: 1, unchanged: 1, deactivated: 0 });
  });

  it('reads again and retries once when someone else changed the user in between (412)', async () => {
    const client = createScimClient({ baseUrl, auth: 'push-token' });
    const grace: Person = { email: 'grace@example.com', givenName: 'Grace', familyName: 'Hopper' };
    await pushUsers(client, [ada, alan, grace]);
    // Another writer changes Grace between our read and our write: the fetch hook writes first.
    let raced = false;
    const racing = createScimClient({
      baseUrl,
      auth: 'push-token',
      fetch: async (input, init) => {
        if (!raced && init?.method === 'PATCH') {
          raced = true;
          const [current] = await client.users.list({ filter: userFilter.eq('userName', grace.email) }).toArray();
          await client.users.patch(current!, patchOps().replace('title', 'Rear Admiral'));
        }
        return fetch(input, init);
      },
    });
    expect(await pushUsers(racing, [ada, alan, { ...grace, familyName: 'Murray Hopper' }])).toMatchObject({ updated: 1 });
    const [after] = await client.users.list({ filter: userFilter.eq('userName', grace.email) }).toArray();
    expect([after?.name?.familyName, after?.title]).toEqual(['Murray Hopper', 'Rear Admiral']);
  });
});
