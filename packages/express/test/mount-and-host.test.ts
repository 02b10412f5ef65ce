import express from 'express';
import express4 from 'express4';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, userResourceType } from '@scimkit/core';
import { createScimRouter, scimRouter } from '../src/index.js';
import { listen, type Listening } from '../../../tests/adapter-support/listen.js';
import { rawExchange } from '../../../tests/adapter-support/raw-exchange.js';

let created = 0;
const userJson = (): string => JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `user${++created}` });
const post = (target: string, host: string | undefined): string => {
  const body = userJson();
  return `POST ${target} HTTP/1.1\r\n${host === undefined ? '' : `Host: ${host}\r\n`}Content-Type: application/scim+json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
};
const location = (reply: string): string | undefined => /\r\nLocation: (\S+)/i.exec(reply)?.[1];
const scim = () => createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore() });

describe.each([
  ['Express 5', express],
  ['Express 4', express4],
] as const)('createScimRouter mount path and Host on %s (issue 14 #6, #8)', (_name, createApp) => {
  let server: Listening | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('keeps the mount path in Location when the Host header is missing or empty', async () => {
    const app = createApp();
    app.use('/scim/v2', createScimRouter(scim()));
    server = await listen(app);
    for (const host of [undefined, '']) {
      const reply = await rawExchange(server.port, [post('/scim/v2/Users', host).replace('HTTP/1.1', host === undefined ? 'HTTP/1.0' : 'HTTP/1.1')]);
      expect(reply, String(host)).toMatch(/^HTTP\/1\.1 201 /);
      expect(location(reply)).toMatch(/^http:\/\/localhost\/scim\/v2\/Users\/[^/]+$/);
    }
  });

  it('answers a request whose mount path is spelled differently like any path outside it, never echoing it', async () => {
    const app = createApp();
    app.use('/scim/v2', createScimRouter(scim()));
    server = await listen(app);
    const reply = await rawExchange(server.port, [post('/SCIM/V2/Users', 'localhost')]);
    expect(reply).toMatch(/^HTTP\/1\.1 404 /);
    expect(reply).not.toContain('/SCIM/V2/Users/');
    expect(location(await rawExchange(server.port, [post('/scim/v2/Users', 'localhost')]))).toMatch(/^http:\/\/localhost\/scim\/v2\/Users\//);
  });

  it('reads the application spelling through nested routers', async () => {
    const app = createApp();
    const api = createApp.Router();
    api.use('/Scim/v2', createScimRouter(scim()));
    app.use('/api', api);
    server = await listen(app);
    expect(location(await rawExchange(server.port, [post('/api/Scim/v2/Users', 'localhost')]))).toMatch(/^http:\/\/localhost\/api\/Scim\/v2\/Users\//);
    expect(await rawExchange(server.port, [post('/API/scim/V2/Users', 'localhost')])).toMatch(/^HTTP\/1\.1 404 /);
  });

  it('serves inside a sub-application mounted under its own path', async () => {
    const app = createApp();
    const sub = createApp();
    sub.use('/scim/v2', createScimRouter(scim()));
    app.use('/tenant-a', sub);
    server = await listen(app);
    expect(location(await rawExchange(server.port, [post('/tenant-a/scim/v2/Users', 'localhost')]))).toMatch(/^http:\/\/localhost\/tenant-a\/scim\/v2\/Users\//);
    expect(await rawExchange(server.port, [post('/tenant-a/SCIM/v2/Users', 'localhost')])).toMatch(/^HTTP\/1\.1 404 /);
  });

  it('keeps working at a mount with parameters, whose spelling it cannot read back', async () => {
    const app = createApp();
    app.use('/tenants/:tenant/scim/v2', createScimRouter(scim()));
    server = await listen(app);
    expect(location(await rawExchange(server.port, [post('/tenants/acme/scim/v2/Users', 'localhost')]))).toMatch(/^http:\/\/localhost\/tenants\/acme\/scim\/v2\/Users\//);
  });
});

describe('the names of the previous release', () => {
  it('keeps scimRouter as a deprecated alias of createScimRouter', () => {
    expect(scimRouter).toBe(createScimRouter);
  });

  it('serves under basePath when mounted at the root, as every adapter does', async () => {
    const app = express();
    app.use(createScimRouter(createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore() }), { basePath: '/scim/v2' }));
    const listening = await listen(app);
    try {
      const created = await fetch(`${listening.origin}/scim/v2/Users`, { method: 'POST', headers: { 'Content-Type': 'application/scim+json' }, body: userJson() });
      expect(created.headers.get('location')).toMatch(new RegExp(`^${listening.origin}/scim/v2/Users/`));
      expect((await fetch(`${listening.origin}/Users`)).status).toBe(404);
    } finally {
      await listening.close();
    }
  });
});
