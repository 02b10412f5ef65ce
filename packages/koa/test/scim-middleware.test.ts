import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import Koa from 'koa';
import Koa2 from 'koa2';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, userResourceType } from '@scimkit/core';
import { createScimMiddleware } from '../src/index.js';
import { listen, type Listening } from '../../../tests/adapter-support/listen.js';
import { rawExchange } from '../../../tests/adapter-support/raw-exchange.js';
import { recordingHandler } from '../../../tests/adapter-support/recording-handler.js';

const SCIM_JSON = 'application/scim+json';
const userJson = JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'bjensen' });
const text = (body: unknown): string => new TextDecoder().decode(body as Uint8Array);

describe.each([
  ['Koa 3', Koa],
  ['Koa 2', Koa2],
] as const)('createScimMiddleware on %s', (_name, KoaApp) => {
  let server: Listening | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const serve = async (app: Koa): Promise<Listening> => (server = await listen(app.callback()));

  it('passes method, the path under the prefix, the decoded query, headers and the mount URL', async () => {
    const scim = recordingHandler();
    const app = new KoaApp();
    app.use(createScimMiddleware(scim, { basePath: '/scim/v2' }));
    const { origin } = await serve(app);

    const query = 'filter=userName%20eq%20%22bj%2Bx%40example.com%22&attributes=userName&attributes=name.givenName';
    const response = await fetch(`${origin}/scim/v2/Users/2819c223%2F7f76?${query}`, { headers: { 'X-Custom': 'yes' } });

    expect(response.status).toBe(200);
    const request = scim.requests[0]!;
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/Users/2819c223%2F7f76');
    expect({ ...request.query }).toEqual({ filter: 'userName eq "bj+x@example.com"', attributes: ['userName', 'name.givenName'] });
    expect(request.headers?.['x-custom']).toBe('yes');
    expect(request.baseUrl).toBe(`${origin}/scim/v2`);
    expect(request.body).toBeUndefined();
  });

  it('leaves other paths to the next middleware, including look-alike prefixes', async () => {
    const scim = recordingHandler();
    const app = new KoaApp();
    app.use(createScimMiddleware(scim, { basePath: '/scim/v2/' }));
    app.use((ctx) => {
      ctx.body = { app: ctx.path };
    });
    const { origin } = await serve(app);

    expect(await (await fetch(`${origin}/health`)).json()).toEqual({ app: '/health' });
    expect(await (await fetch(`${origin}/scim/v2x/Users`)).json()).toEqual({ app: '/scim/v2x/Users' });
    expect(scim.requests).toHaveLength(0);
    await fetch(`${origin}/scim/v2`);
    expect(scim.requests[0]?.path).toBe('/');
  });

  it('serves every path when there is no prefix and no router', async () => {
    const scim = recordingHandler();
    const app = new KoaApp();
    app.use(createScimMiddleware(scim));
    const { origin } = await serve(app);
    await fetch(`${origin}/Schemas/urn:ietf:params:scim:schemas:core:2.0:User`);
    expect(scim.requests[0]?.path).toBe('/Schemas/urn:ietf:params:scim:schemas:core:2.0:User');
    expect(scim.requests[0]?.baseUrl).toBe(origin);
  });

  it('takes the prefix from an @koa/router route, under a router prefix', async () => {
    const scim = recordingHandler();
    const app = new KoaApp();
    const router = new Router({ prefix: '/api' });
    router.get('/health', (ctx) => {
      ctx.body = 'ok';
    });
    router.all(['/scim/v2', '/scim/v2/(.*)'], createScimMiddleware(scim));
    app.use(router.routes()).use(router.allowedMethods());
    const { origin } = await serve(app);

    expect(await (await fetch(`${origin}/api/health`)).text()).toBe('ok');
    await fetch(`${origin}/api/scim/v2/Users/abc`, { method: 'DELETE' });
    await fetch(`${origin}/api/scim/v2`);
    expect(scim.requests.map((r) => [r.method, r.path, r.baseUrl])).toEqual([
      ['DELETE', '/Users/abc', `${origin}/api/scim/v2`],
      ['GET', '/', `${origin}/api/scim/v2`],
    ]);
  });

  it('finds the mount point of a route with parameters, one server per tenant', async () => {
    const tenants = { acme: recordingHandler(), globex: recordingHandler() };
    const app = new KoaApp();
    const router = new Router();
    router.all(['/tenants/:tenant/scim/v2', '/tenants/:tenant/scim/v2/:path*'], (ctx, next) =>
      createScimMiddleware(ctx.params['tenant'] === 'acme' ? tenants.acme : tenants.globex)(ctx, next),
    );
    app.use(router.routes());
    const { origin } = await serve(app);

    await fetch(`${origin}/tenants/acme/scim/v2/Users/1?count=1`);
    await fetch(`${origin}/tenants/globex/scim/v2`);
    expect(tenants.acme.requests.map((r) => [r.path, r.baseUrl, { ...r.query }])).toEqual([['/Users/1', `${origin}/tenants/acme/scim/v2`, { count: '1' }]]);
    expect(tenants.globex.requests.map((r) => [r.path, r.baseUrl])).toEqual([['/', `${origin}/tenants/globex/scim/v2`]]);
  });

  it('uses the configured baseUrl instead of the Host header', async () => {
    const scim = recordingHandler();
    const app = new KoaApp();
    app.use(createScimMiddleware(scim, { basePath: '/scim/v2', baseUrl: 'https://idp.example.com/scim/v2' }));
    const { origin } = await serve(app);
    await fetch(`${origin}/scim/v2/Users`);
    expect(scim.requests[0]?.baseUrl).toBe('https://idp.example.com/scim/v2');
  });

  it('writes status, headers and body exactly as handle() returned them', async () => {
    const body = JSON.stringify({ id: '1', meta: { version: 'W/"3"' } });
    const scim = recordingHandler({
      status: 201,
      headers: { 'Content-Type': SCIM_JSON, ETag: 'W/"3"', Location: 'http://x/scim/v2/Users/1' },
      body,
    });
    const app = new KoaApp();
    app.use(createScimMiddleware(scim, { basePath: '/scim/v2' }));
    const { origin } = await serve(app);

    const response = await fetch(`${origin}/scim/v2/Users`, { method: 'POST', headers: { 'Content-Type': SCIM_JSON }, body: userJson });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe(SCIM_JSON);
    expect(response.headers.get('etag')).toBe('W/"3"');
    expect(response.headers.get('location')).toBe('http://x/scim/v2/Users/1');
    expect(await response.text()).toBe(body);
  });

  it.each([204, 304])('sends %i with an empty body', async (status) => {
    const scim = recordingHandler({ status, headers: { ETag: 'W/"1"' } });
    const app = new KoaApp();
    app.use(createScimMiddleware(scim, { basePath: '/scim/v2' }));
    const { origin } = await serve(app);
    const response = await fetch(`${origin}/scim/v2/Users/1`, { method: status === 204 ? 'DELETE' : 'GET' });
    expect(response.status).toBe(status);
    expect(response.headers.get('etag')).toBe('W/"1"');
    expect(await response.text()).toBe('');
  });

  it('keeps a bodiless non-empty status (it does not become 204)', async () => {
    const scim = recordingHandler({ status: 200, headers: { 'Content-Type': SCIM_JSON } });
    const app = new KoaApp();
    app.use(createScimMiddleware(scim, { basePath: '/scim/v2' }));
    const { origin } = await serve(app);
    const response = await fetch(`${origin}/scim/v2/Users`, { method: 'HEAD' });
    expect(response.status).toBe(200);
  });

  it('reads the raw body itself when no body parser ran', async () => {
    const scim = recordingHandler();
    const app = new KoaApp();
    app.use(createScimMiddleware(scim, { basePath: '/scim/v2' }));
    const { origin } = await serve(app);
    await fetch(`${origin}/scim/v2/Users`, { method: 'POST', headers: { 'Content-Type': SCIM_JSON }, body: userJson });
    expect(scim.requests[0]?.body).toBeInstanceOf(Uint8Array);
    expect(text(scim.requests[0]?.body)).toBe(userJson);
  });

  it('passes the raw text @koa/bodyparser kept when it parsed the body', async () => {
    const scim = recordingHandler();
    const app = new KoaApp();
    app.use(bodyParser());
    app.use(createScimMiddleware(scim, { basePath: '/scim/v2' }));
    const { origin } = await serve(app);
    await fetch(`${origin}/scim/v2/Users`, { method: 'PATCH', headers: { 'Content-Type': SCIM_JSON }, body: userJson });
    expect(scim.requests[0]?.body).toBe(userJson);
  });

  it('reads the stream when @koa/bodyparser skipped the content type', async () => {
    const scim = recordingHandler();
    const app = new KoaApp();
    app.use(bodyParser());
    app.use(createScimMiddleware(scim, { basePath: '/scim/v2' }));
    const { origin } = await serve(app);
    await fetch(`${origin}/scim/v2/Users`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: userJson });
    expect(text(scim.requests[0]?.body)).toBe(userJson);
  });

  it('passes what a parser left in ctx.request.body when it consumed the stream without raw text', async () => {
    const scim = recordingHandler();
    const app = new KoaApp();
    app.use(async (ctx, next) => {
      let raw = '';
      for await (const chunk of ctx.req) raw += String(chunk);
      (ctx.request as { body?: unknown }).body = JSON.parse(raw) as unknown;
      await next();
    });
    app.use(createScimMiddleware(scim, { basePath: '/scim/v2' }));
    const { origin } = await serve(app);
    await fetch(`${origin}/scim/v2/Users`, { method: 'POST', headers: { 'Content-Type': SCIM_JSON }, body: userJson });
    expect(scim.requests[0]?.body).toEqual(JSON.parse(userJson));
  });

  it('answers 413 with a SCIM error for a declared length over maxBodyBytes, without calling handle()', async () => {
    const scim = recordingHandler();
    const app = new KoaApp();
    app.use(createScimMiddleware(scim, { basePath: '/scim/v2', maxBodyBytes: 64 }));
    const { origin } = await serve(app);
    const response = await fetch(`${origin}/scim/v2/Users`, { method: 'POST', headers: { 'Content-Type': SCIM_JSON }, body: 'x'.repeat(65) });
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toBe(SCIM_JSON);
    expect(await response.json()).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '413',
      detail: 'The request body exceeds 64 bytes.',
    });
    expect(scim.requests).toHaveLength(0);
  });

  it('answers 413 for a chunked body that grows over maxBodyBytes', async () => {
    const scim = recordingHandler();
    const app = new KoaApp();
    app.use(createScimMiddleware(scim, { basePath: '/scim/v2', maxBodyBytes: 64 }));
    const { port } = await serve(app);
    const chunk = 'y'.repeat(40);
    const reply = await rawExchange(port, [
      'POST /scim/v2/Users HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/scim+json\r\nTransfer-Encoding: chunked\r\n\r\n',
      `28\r\n${chunk}\r\n`,
      `28\r\n${chunk}\r\n`,
    ]);
    expect(reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(reply).toContain('"status":"413"');
    expect(scim.requests).toHaveLength(0);
  });

  it('answers 408 and closes the connection when the body never arrives (bodyTimeoutMs)', async () => {
    const scim = recordingHandler();
    const app = new KoaApp();
    app.use(createScimMiddleware(scim, { basePath: '/scim/v2', bodyTimeoutMs: 100 }));
    const { port } = await serve(app);
    const reply = await rawExchange(port, ['POST /scim/v2/Users HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/scim+json\r\nContent-Length: 50\r\n\r\n{"userName":'], { settleMs: 5000 });
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(reply.toLowerCase()).toContain('connection: close');
    expect(reply).toContain('"status":"408"');
    expect(scim.requests).toHaveLength(0);
  });

  it('a form body a parser already turned into an object is refused with 415, never created as a user', async () => {
    const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore() });
    const app = new KoaApp();
    // What koa-body leaves for a form: the stream consumed, ctx.request.body an object, no raw text.
    app.use(async (ctx, next) => {
      let raw = '';
      for await (const chunk of ctx.req) raw += String(chunk);
      if (raw !== '') (ctx.request as { body?: unknown }).body = Object.fromEntries(new URLSearchParams(raw));
      await next();
    });
    app.use(createScimMiddleware(scim, { basePath: '/scim/v2' }));
    const { origin } = await serve(app);
    const reply = await fetch(`${origin}/scim/v2/Users`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'userName=form' });
    expect(reply.status).toBe(415);
    expect(((await (await fetch(`${origin}/scim/v2/Users`)).json()) as { totalResults: number }).totalResults).toBe(0);
  });

  it('survives a client that disconnects mid-body, and keeps serving', async () => {
    const scim = recordingHandler();
    const app = new KoaApp();
    const errors: unknown[] = [];
    app.on('error', (error: unknown) => errors.push(error));
    app.use(createScimMiddleware(scim, { basePath: '/scim/v2' }));
    const { origin, port } = await serve(app);
    await rawExchange(
      port,
      ['POST /scim/v2/Users HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/scim+json\r\nContent-Length: 1000\r\n\r\n{"userName":'],
      { hangUp: true },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(scim.requests).toHaveLength(0);
    // Koa itself reports the broken connection (an HTTP parse error on the socket); nothing else fails.
    for (const error of errors) expect(String((error as { code?: unknown }).code)).toMatch(/^(HPE_|ECONNRESET)/);
    expect((await fetch(`${origin}/scim/v2/Users`)).status).toBe(200);
  });
  it('does not write to a client that left while handle() was working', async () => {
    let answered!: () => void;
    const done = new Promise<void>((resolve) => (answered = resolve));
    const slow = {
      handle: async () => {
        await new Promise((resolve) => setTimeout(resolve, 100));
        answered();
        return { status: 200, headers: { 'Content-Type': SCIM_JSON }, body: '{}' };
      },
    };
    const app = new KoaApp();
    app.on('error', () => undefined);
    app.use(createScimMiddleware(slow, { basePath: '/scim/v2' }));
    const { origin, port } = await serve(app);
    await rawExchange(port, ['GET /scim/v2/Users HTTP/1.1\r\nHost: localhost\r\n\r\n'], { hangUp: true });
    await done;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await fetch(`${origin}/health`)).status).toBe(404);
  });
});
