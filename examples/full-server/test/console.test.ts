import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createScimServer } from '@scimkit/core';
import { createRequestLog } from '@scimkit/console';
import { afterEach, describe, expect, it } from 'vitest';
import { createFullServerConfig, fullServerListener } from '../src/index.js';

const PASSWORD = 'a console password';
const running: Server[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function start(withConsole: boolean): Promise<string> {
  const log = createRequestLog();
  const scim = createScimServer({ ...createFullServerConfig({ token: 's3cret' }), ...(withConsole ? { requestLog: log } : {}) });
  const server = createServer(fullServerListener(scim, withConsole ? { log, password: PASSWORD } : undefined));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  running.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the full server with SCIM_CONSOLE_PASSWORD', () => {
  it('serves no console without the password', async () => {
    const origin = await start(false);
    expect((await fetch(`${origin}/console/`, { redirect: 'manual' })).status).toBe(404);
  });

  it('serves the console at /console on the same port, behind the login form', async () => {
    const origin = await start(true);
    const scim = await fetch(`${origin}/scim/v2/Users`, { method: 'POST', headers: { authorization: 'Bearer s3cret', 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'bjensen' }) });
    expect(scim.status).toBe(201);
    const refused = await fetch(`${origin}/console/requests`, { redirect: 'manual' });
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe('/console/login');
    const form = await fetch(`${origin}/console/login`);
    const cookie = (form.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
    const login = await fetch(`${origin}/console/login`, { method: 'POST', redirect: 'manual', headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf, password: PASSWORD }).toString() });
    expect(login.status).toBe(303);
    const session = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const page = await fetch(`${origin}/console/requests`, { headers: { cookie: session } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('POST /Users');
    expect(html).not.toContain('s3cret');
  });
});
