import Koa from 'koa';
import Koa2 from 'koa2';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, userResourceType } from '@scimkit/core';
import { createScimMiddleware, scimMiddleware } from '../src/index.js';
import { listen, type Listening } from '../../../tests/adapter-support/listen.js';
import { rawExchange } from '../../../tests/adapter-support/raw-exchange.js';

let created = 0;
const userJson = (): string => JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `user${++created}` });
const post = (target: string, host: string | undefined, version = '1.1'): string => {
  const body = userJson();
  return `POST ${target} HTTP/${version}\r\n${host === undefined ? '' : `Host: ${host}\r\n`}Content-Type: application/scim+json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
};
const location = (reply: string): string | undefined => /\r\nLocation: (\S+)/i.exec(reply)?.[1];
const scim = () => createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore() });

describe.each([
  ['Koa 3', Koa],
  ['Koa 2', Koa2 as unknown as typeof Koa],
] as const)('createScimMiddleware Host handling on %s (issue 14 #6, #7)', (_name, App) => {
  let server: Listening | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const start = async (): Promise<Listening> => {
    const app = new App();
    app.use(createScimMiddleware(scim(), { basePath: '/scim/v2' }));
    return (server = await listen(app.callback()));
  };

  it('keeps the mount path in Location when the Host header is missing or empty', async () => {
    const { port } = await start();
    for (const [host, version] of [[undefined, '1.0'], ['', '1.1']] as const) {
      const reply = await rawExchange(port, [post('/scim/v2/Users', host, version)]);
      expect(reply, String(host)).toMatch(/^HTTP\/1\.1 201 /);
      expect(location(reply)).toMatch(/^http:\/\/localhost\/scim\/v2\/Users\/[^/]+$/);
    }
  });

  it('checks the Host header as received: user@evil is a 400, not a Location on evil', async () => {
    const { port } = await start();
    for (const host of ['user@evil', 'a@b@evil.example']) {
      const reply = await rawExchange(port, [post('/scim/v2/Users', host)]);
      expect(reply, host).toMatch(/^HTTP\/1\.1 400 /);
      expect(reply).toContain('"status":"400"');
      expect(reply).not.toMatch(/Location:/i);
    }
  });

  it('checks X-Forwarded-Host as received behind app.proxy', async () => {
    const app = new App();
    app.proxy = true;
    app.use(createScimMiddleware(scim(), { basePath: '/scim/v2' }));
    server = await listen(app.callback());
    const forwarded = (value: string) => post('/scim/v2/Users', 'localhost').replace('Host: localhost\r\n', `Host: localhost\r\nX-Forwarded-Host: ${value}\r\n`);
    expect(await rawExchange(server.port, [forwarded('user@evil')])).toMatch(/^HTTP\/1\.1 400 /);
    expect(location(await rawExchange(server.port, [forwarded('idp.example.com, proxy.internal')]))).toMatch(/^http:\/\/idp\.example\.com\/scim\/v2\/Users\//);
  });

  it('answers a different spelling of the prefix like any path outside it', async () => {
    const { port } = await start();
    const reply = await rawExchange(port, [post('/SCIM/V2/Users', 'localhost')]);
    expect(reply).toMatch(/^HTTP\/1\.1 404 /);
    expect(reply).not.toContain('/SCIM/V2/Users/');
  });
});

describe('the names of the previous release', () => {
  it('keeps scimMiddleware and its prefix option as deprecated aliases of createScimMiddleware and basePath', async () => {
    const app = new Koa();
    app.use(scimMiddleware(scim(), { prefix: '/scim/v2' }));
    const listening = await listen(app.callback());
    try {
      expect(scimMiddleware).toBe(createScimMiddleware);
      expect((await fetch(`${listening.origin}/scim/v2/Users`)).status).toBe(200);
      // Outside it, Koa's own 404.
      expect((await fetch(`${listening.origin}/other/Users`)).status).toBe(404);
    } finally {
      await listening.close();
    }
  });
});
