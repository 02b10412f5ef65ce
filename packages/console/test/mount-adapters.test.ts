import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryStore, createScimServer, userResourceType } from '@scimkit/core';
import { createScimRouter } from '@scimkit/express';
import { createScimPlugin } from '@scimkit/fastify';
import { createFetchHandler } from '@scimkit/fetch';
import { createScimMiddleware } from '@scimkit/koa';
import { createNodeHandler } from '@scimkit/node';
import express from 'express';
import Fastify from 'fastify';
import Koa from 'koa';
import { describe, expect, it } from 'vitest';
import { CONSOLE_CSP, createConsole, createRequestLog, passwordLogin, type ScimConsole } from '../src/index.js';

const PASSWORD = 'a console password';

function setup(): { scim: ReturnType<typeof createScimServer>; scimConsole: ScimConsole } {
  const requestLog = createRequestLog();
  const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), requestLog });
  const scimConsole = createConsole({ log: requestLog, scim, login: passwordLogin(PASSWORD), basePath: '/console' });
  return { scim, scimConsole };
}

/** Log in through the mounted console and read the requests page: the whole round trip each framework must carry. */
async function roundTrip(origin: string): Promise<void> {
  const created = await fetch(`${origin}/scim/v2/Users`, { method: 'POST', headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'mounted' }) });
  expect(created.status).toBe(201);
  const form = await fetch(`${origin}/console/login`);
  expect(form.status).toBe(200);
  expect(form.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
  const cookie = (form.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const login = await fetch(`${origin}/console/login`, { method: 'POST', redirect: 'manual', headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf, password: PASSWORD }).toString() });
  expect(login.status).toBe(303);
  const session = (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const page = await fetch(`${origin}/console/requests`, { headers: { cookie: session } });
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('POST /Users');
  const css = await fetch(`${origin}/console/assets/console.css`);
  expect(css.headers.get('content-type')).toContain('text/css');
}

async function listen(server: Server): Promise<{ origin: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('mounting the console beside SCIM (docs/concepts/console.md)', () => {
  it('node:http', async () => {
    const { scim, scimConsole } = setup();
    // node:http
    const scimHandler = createNodeHandler(scim, { basePath: '/scim/v2' });
    const consoleHandler = createNodeHandler(scimConsole, { basePath: '/console' });
    const app = await listen(createServer((req, res) => scimHandler(req, res, () => consoleHandler(req, res))));
    await roundTrip(app.origin).finally(app.close);
  });

  it('Express', async () => {
    const { scim, scimConsole } = setup();
    // Express
    const app = express();
    app.use('/scim/v2', createScimRouter(scim));
    app.use('/console', createScimRouter(scimConsole));
    const running = await listen(createServer(app));
    await roundTrip(running.origin).finally(running.close);
  });

  it('Koa', async () => {
    const { scim, scimConsole } = setup();
    // Koa
    const app = new Koa();
    app.use(createScimMiddleware(scim, { basePath: '/scim/v2' }));
    app.use(createScimMiddleware(scimConsole, { basePath: '/console' }));
    const running = await listen(createServer(app.callback()));
    await roundTrip(running.origin).finally(running.close);
  });

  it('Fastify', async () => {
    const { scim, scimConsole } = setup();
    // Fastify
    const app = Fastify();
    await app.register(createScimPlugin(scim), { prefix: '/scim/v2' });
    await app.register(createScimPlugin(scimConsole), { prefix: '/console' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    await roundTrip(`http://127.0.0.1:${port}`).finally(() => app.close());
  });

  it('Fetch API', async () => {
    const { scim, scimConsole } = setup();
    // Fetch API (Hono, Next.js, Bun, Deno, Workers)
    const scimFetch = createFetchHandler(scim, { basePath: '/scim/v2' });
    const consoleFetch = createFetchHandler(scimConsole, { basePath: '/console' });
    const handler = (request: Request): Promise<Response> => (new URL(request.url).pathname.startsWith('/console') ? consoleFetch(request) : scimFetch(request));
    // Served through node:http here; Bun.serve / Deno.serve / a Worker take `handler` as is.
    const app = await listen(
      createServer(async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
        const response = await handler(new Request(`http://${req.headers.host}${req.url}`, { method: req.method ?? 'GET', headers, ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}) }));
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      }),
    );
    await roundTrip(app.origin).finally(app.close);
  });
});
