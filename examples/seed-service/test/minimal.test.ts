import { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';

/**
 * The README's "Using the library" sample (src/minimal.ts, quoted by docs-samples.test.ts) serves SCIM
 * as it says. Its `listen(8080)` is redirected to a free port on the loopback interface.
 */
describe('the README sample (src/minimal.ts)', () => {
  const listen = Server.prototype.listen as (this: Server, port: number, host: string) => Server;
  const listened = vi.spyOn(Server.prototype, 'listen').mockImplementation(function (this: Server) {
    return listen.call(this, 0, '127.0.0.1');
  });
  let server: Server | undefined;

  afterAll(async () => {
    listened.mockRestore();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  });

  it('creates and lists users at /scim/v2', async () => {
    await import('../src/minimal.js');
    expect(listened).toHaveBeenCalledWith(8080);
    server = listened.mock.contexts[0] as Server;
    if (!server.listening) await new Promise((resolve) => server?.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/scim/v2`;

    const created = await fetch(`${base}/Users`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/scim+json' },
      body: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'bjensen' }),
    });
    expect(created.status).toBe(201);
    const listed = await fetch(`${base}/Users?filter=${encodeURIComponent('userName eq "bjensen"')}`);
    expect(listed.status).toBe(200);
    expect(await listed.json()).toMatchObject({ totalResults: 1, Resources: [{ userName: 'bjensen' }] });
  });
});
