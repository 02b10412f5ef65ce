import { describe, expect, it } from 'vitest';
import { client, groupsServer } from './membership-helpers.js';

describe('membership across tenants', () => {
  it('resolves members, computes groups and removes references within the request tenant only', async () => {
    const server = groupsServer({
      authenticate: (request) => {
        const tenant = request.headers?.['x-tenant'];
        return typeof tenant === 'string' ? { ok: true, tenant } : { ok: false };
      },
    });
    const c = client(server);
    const as = (tenant: string) => ({ 'x-tenant': tenant });
    const alice = (await c.send('POST', '/Users', { userName: 'alice' }, as('acme'))).body['id'] as string;
    // Another tenant cannot reference acme's user.
    const foreign = await c.send('POST', '/Groups', { displayName: 'G', members: [{ value: alice }] }, as('globex'));
    expect(foreign.status).toBe(400);
    expect(foreign.body['scimType']).toBe('invalidValue');
    const team = await c.send('POST', '/Groups', { displayName: 'Team', members: [{ value: alice }] }, as('acme'));
    expect(team.status).toBe(201);
    expect((await c.send('GET', `/Users/${alice}`, undefined, as('acme'))).body['groups']).toHaveLength(1);
    expect((await c.send('GET', `/Users/${alice}`, undefined, as('globex'))).status).toBe(404);
    expect((await c.send('DELETE', `/Users/${alice}`, undefined, as('acme'))).status).toBe(204);
    expect((await c.send('GET', `/Groups/${team.body['id']}`, undefined, as('acme'))).body['members']).toBeUndefined();
  });
});
