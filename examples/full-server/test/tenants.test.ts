import { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseTenants } from '../src/parse-tenants.js';

describe('SCIM_TENANTS', () => {
  it('reads tenant:token pairs, a tenant with two tokens during a rotation', () => {
    expect(parseTenants('acme:a-1, globex:g_1=,acme:a-2')).toEqual({
      ok: true,
      tenants: [
        { tenant: 'acme', token: 'a-1' },
        { tenant: 'globex', token: 'g_1=' },
        { tenant: 'acme', token: 'a-2' },
      ],
    });
  });

  it('names the first bad entry', () => {
    expect(parseTenants('')).toMatchObject({ ok: false, error: expect.stringContaining('is not tenant:token') });
    expect(parseTenants('acme')).toMatchObject({ ok: false, error: expect.stringContaining('"acme"') });
    expect(parseTenants('acme:')).toMatchObject({ ok: false, error: expect.stringContaining('the token of "acme"') });
    expect(parseTenants('acme:has space')).toMatchObject({ ok: false });
    expect(parseTenants(':token')).toMatchObject({ ok: false });
    expect(parseTenants('acme:t,globex:t')).toMatchObject({ ok: false, error: expect.stringContaining('twice') });
  });
});

/** `npm run start:tenants` (src/tenants.ts), its listen redirected to a free loopback port. */
describe('start:tenants', () => {
  const listen = Server.prototype.listen as (this: Server, port: number, host: string, callback?: () => void) => Server;
  const listened = vi.spyOn(Server.prototype, 'listen').mockImplementation(function (this: Server, ...args: unknown[]) {
    return listen.call(this, 0, '127.0.0.1', args.find((arg): arg is () => void => typeof arg === 'function'));
  });
  let server: Server | undefined;

  afterAll(async () => {
    listened.mockRestore();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  });

  it('serves every tenant at the same /scim/v2, the bearer token picking the tenant', async () => {
    vi.stubEnv('SCIM_TENANTS', 'acme:acme-secret,globex:globex-secret');
    const logged = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    await import('../src/tenants.js');
    vi.unstubAllEnvs();
    server = listened.mock.contexts[0] as Server;
    if (!server.listening) await new Promise((resolve) => server?.once('listening', resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(logged.mock.calls[0]?.[0]).toContain('full server for tenants acme, globex');
    logged.mockRestore();
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/scim/v2`;
    const as = (token: string) => ({ Authorization: `Bearer ${token}`, 'Content-Type': 'application/scim+json' });
    const body = JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'bjensen' });
    const acme = await fetch(`${base}/Users`, { method: 'POST', headers: as('acme-secret'), body });
    const globex = await fetch(`${base}/Users`, { method: 'POST', headers: as('globex-secret'), body });
    expect([acme.status, globex.status]).toEqual([201, 201]);
    const acmeId = ((await acme.json()) as { id: string }).id;
    expect((await fetch(`${base}/Users/${acmeId}`, { headers: as('globex-secret') })).status).toBe(404);
    expect((await fetch(`${base}/Users/${acmeId}`, { headers: as('acme-secret') })).status).toBe(200);
    expect((await fetch(`${base}/Users`, { headers: as('initech-secret') })).status).toBe(401);
    // Groups and membership are per tenant too: globex cannot add acme's user to its group.
    const group = (members: unknown[]) => JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Team', members });
    expect((await fetch(`${base}/Groups`, { method: 'POST', headers: as('globex-secret'), body: group([{ value: acmeId }]) })).status).toBe(400);
    expect((await fetch(`${base}/Groups`, { method: 'POST', headers: as('acme-secret'), body: group([{ value: acmeId }]) })).status).toBe(201);
    const groups = (await (await fetch(`${base}/Users/${acmeId}`, { headers: as('acme-secret') })).json()) as { groups?: { display: string }[] };
    expect(groups.groups?.map((entry) => entry.display)).toEqual(['Team']);
    expect(((await (await fetch(`${base}/Groups`, { headers: as('globex-secret') })).json()) as { totalResults: number }).totalResults).toBe(0);
  });
});
