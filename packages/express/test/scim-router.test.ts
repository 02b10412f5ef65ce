import express from 'express';
import express4 from 'express4';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, userResourceType } from '@scimkit/core';
import { createScimRouter } from '../src/index.js';
import { listen, type Listening } from '../../../tests/adapter-support/listen.js';
import { rawExchange } from '../../../tests/adapter-support/raw-exchange.js';
import { recordingHandler } from '../../../tests/adapter-support/recording-handler.js';

const SCIM_JSON = 'application/scim+json';
const userJson = JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'bjensen' });
const text = (body: unknown): string => new TextDecoder().decode(body as Uint8Array);

describe.each([
  ['Express 5', express],
  ['Express 4', express4],
] as const)('createScimRouter on %s', (_name, createApp) => {
  let server: Listening | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('passes method, the path relative to the mount, the decoded query, headers and the mount URL', async () => {
    const scim = recordingHandler();
    const app = createApp();
    app.use('/scim/v2', createScimRouter(scim));
    server = await listen(app);

    const query = 'filter=userName%20eq%20%22bj%2Bx%40example.com%22&attributes=userName&attributes=name.givenName&count=2';
    const response = await fetch(`${server.origin}/scim/v2/Users/2819c223%2F7f76?${query}`, { headers: { 'X-Custom': 'yes' } });

    expect(response.status).toBe(200);
    expect(scim.requests).toHaveLength(1);
    const request = scim.requests[0]!;
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/Users/2819c223%2F7f76');
    expect({ ...request.query }).toEqual({
      filter: 'userName eq "bj+x@example.com"',
      attributes: ['userName', 'name.givenName'],
      count: '2',
    });
    expect(request.headers?.['x-custom']).toBe('yes');
    expect(request.baseUrl).toBe(`${server.origin}/scim/v2`);
    expect(request.body).toBeUndefined();
  });

  it('serves a request at the mount point itself as path "/"', async () => {
    const scim = recordingHandler();
    const app = createApp();
    app.use('/scim/v2', createScimRouter(scim));
    server = await listen(app);
    await fetch(`${server.origin}/scim/v2`);
    expect(scim.requests[0]?.path).toBe('/');
  });

  it('computes the mount URL through nested routers and leaves the app its own routes', async () => {
    const scim = recordingHandler();
    const app = createApp();
    const api = createApp.Router();
    api.use('/scim/v2', createScimRouter(scim));
    app.use('/api', api);
    app.get('/health', (_req, res) => {
      res.json({ ok: true });
    });
    server = await listen(app);

    expect(await (await fetch(`${server.origin}/health`)).json()).toEqual({ ok: true });
    expect(scim.requests).toHaveLength(0);

    await fetch(`${server.origin}/api/scim/v2/ServiceProviderConfig`);
    expect(scim.requests[0]?.path).toBe('/ServiceProviderConfig');
    expect(scim.requests[0]?.baseUrl).toBe(`${server.origin}/api/scim/v2`);
  });

  it('uses the configured baseUrl instead of the Host header', async () => {
    const scim = recordingHandler();
    const app = createApp();
    app.use('/scim/v2', createScimRouter(scim, { baseUrl: 'https://idp.example.com/scim/v2' }));
    server = await listen(app);
    await fetch(`${server.origin}/scim/v2/Users`);
    expect(scim.requests[0]?.baseUrl).toBe('https://idp.example.com/scim/v2');
  });

  it('does not let a __proto__ query parameter reach an object prototype', async () => {
    const scim = recordingHandler();
    const app = createApp();
    app.use('/scim/v2', createScimRouter(scim));
    server = await listen(app);
    await fetch(`${server.origin}/scim/v2/Users?__proto__=x&__proto__=y&constructor=z`);
    const query = scim.requests[0]?.query ?? {};
    expect(Object.getPrototypeOf(query)).toBeNull();
    expect(Object.entries(query)).toEqual([
      ['__proto__', ['x', 'y']],
      ['constructor', 'z'],
    ]);
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });

  it('writes status, headers and body exactly as handle() returned them', async () => {
    const body = JSON.stringify({ id: '1', meta: { version: 'W/"3"' } });
    const scim = recordingHandler({
      status: 201,
      headers: { 'Content-Type': SCIM_JSON, ETag: 'W/"3"', Location: 'http://x/scim/v2/Users/1' },
      body,
    });
    const app = createApp();
    app.use('/scim/v2', createScimRouter(scim));
    server = await listen(app);

    const response = await fetch(`${server.origin}/scim/v2/Users`, { method: 'POST', headers: { 'Content-Type': SCIM_JSON }, body: userJson });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe(SCIM_JSON);
    expect(response.headers.get('etag')).toBe('W/"3"');
    expect(response.headers.get('location')).toBe('http://x/scim/v2/Users/1');
    expect(await response.text()).toBe(body);
  });

  it.each([204, 304])('sends %i with an empty body', async (status) => {
    const scim = recordingHandler({ status, headers: { ETag: 'W/"1"' } });
    const app = createApp();
    app.use('/scim/v2', createScimRouter(scim));
    server = await listen(app);
    const response = await fetch(`${server.origin}/scim/v2/Users/1`, { method: status === 204 ? 'DELETE' : 'GET' });
    expect(response.status).toBe(status);
    expect(response.headers.get('etag')).toBe('W/"1"');
    expect(await response.text()).toBe('');
  });

  it('reads the raw body itself when no body parser ran', async () => {
    const scim = recordingHandler();
    const app = createApp();
    app.use('/scim/v2', createScimRouter(scim));
    server = await listen(app);
    await fetch(`${server.origin}/scim/v2/Users`, { method: 'POST', headers: { 'Content-Type': SCIM_JSON }, body: userJson });
    expect(scim.requests[0]?.body).toBeInstanceOf(Uint8Array);
    expect(text(scim.requests[0]?.body)).toBe(userJson);
  });

  it('reads the raw body when express.json() ran but skipped application/scim+json', async () => {
    const scim = recordingHandler();
    const app = createApp();
    app.use(createApp.json());
    app.use('/scim/v2', createScimRouter(scim));
    server = await listen(app);
    await fetch(`${server.origin}/scim/v2/Users`, { method: 'POST', headers: { 'Content-Type': SCIM_JSON }, body: userJson });
    expect(text(scim.requests[0]?.body)).toBe(userJson);
  });

  it('passes the parsed JSON when express.json() consumed the body', async () => {
    const scim = recordingHandler();
    const app = createApp();
    app.use(createApp.json({ type: ['application/json', SCIM_JSON] }));
    app.use('/scim/v2', createScimRouter(scim));
    server = await listen(app);
    await fetch(`${server.origin}/scim/v2/Users`, { method: 'POST', headers: { 'Content-Type': SCIM_JSON }, body: userJson });
    expect(scim.requests[0]?.body).toEqual(JSON.parse(userJson));
  });

  it('passes the raw bytes a parser kept in req.rawBody, so the core sees exactly what was sent', async () => {
    const scim = recordingHandler();
    const app = createApp();
    app.use(
      createApp.json({
        type: ['application/json', SCIM_JSON],
        verify: (req, _res, buffer) => {
          Object.assign(req, { rawBody: buffer });
        },
      }),
    );
    app.use('/scim/v2', createScimRouter(scim));
    server = await listen(app);
    const sent = '{ "userName" : "bjensen", "userName": "twice" }';
    await fetch(`${server.origin}/scim/v2/Users`, { method: 'POST', headers: { 'Content-Type': SCIM_JSON }, body: sent });
    expect(text(scim.requests[0]?.body)).toBe(sent);
  });

  it('passes the text when express.text() consumed the body', async () => {
    const scim = recordingHandler();
    const app = createApp();
    app.use(createApp.text({ type: '*/*' }));
    app.use('/scim/v2', createScimRouter(scim));
    server = await listen(app);
    await fetch(`${server.origin}/scim/v2/Users`, { method: 'POST', headers: { 'Content-Type': SCIM_JSON }, body: userJson });
    expect(scim.requests[0]?.body).toBe(userJson);
  });

  it('passes no body for a GET even behind express.json()', async () => {
    const scim = recordingHandler();
    const app = createApp();
    app.use(createApp.json());
    app.use('/scim/v2', createScimRouter(scim));
    server = await listen(app);
    await fetch(`${server.origin}/scim/v2/Users`);
    expect(scim.requests[0]?.body).toBeUndefined();
  });

  it('answers 413 with a SCIM error for a declared length over maxBodyBytes, without calling handle()', async () => {
    const scim = recordingHandler();
    const app = createApp();
    app.use('/scim/v2', createScimRouter(scim, { maxBodyBytes: 64 }));
    server = await listen(app);
    const response = await fetch(`${server.origin}/scim/v2/Users`, { method: 'POST', headers: { 'Content-Type': SCIM_JSON }, body: 'x'.repeat(65) });
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toBe(SCIM_JSON);
    expect(await response.json()).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '413',
      detail: 'The request body exceeds 64 bytes.',
    });
    expect(scim.requests).toHaveLength(0);
  });

  it('accepts a body of exactly maxBodyBytes', async () => {
    const scim = recordingHandler();
    const app = createApp();
    app.use('/scim/v2', createScimRouter(scim, { maxBodyBytes: 64 }));
    server = await listen(app);
    const response = await fetch(`${server.origin}/scim/v2/Users`, { method: 'POST', body: 'x'.repeat(64) });
    expect(response.status).toBe(200);
    expect(text(scim.requests[0]?.body)).toBe('x'.repeat(64));
  });

  it('answers 413 for a chunked body that grows over maxBodyBytes', async () => {
    const scim = recordingHandler();
    const app = createApp();
    app.use('/scim/v2', createScimRouter(scim, { maxBodyBytes: 64 }));
    server = await listen(app);
    const chunk = 'y'.repeat(40);
    const reply = await rawExchange(server.port, [
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
    const app = createApp();
    app.use('/scim/v2', createScimRouter(scim, { bodyTimeoutMs: 100 }));
    server = await listen(app);
    const reply = await rawExchange(server.port, ['POST /scim/v2/Users HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/scim+json\r\nContent-Length: 50\r\n\r\n{"userName":'], { settleMs: 5000 });
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(reply.toLowerCase()).toContain('connection: close');
    expect(reply).toContain('"status":"408"');
    expect(scim.requests).toHaveLength(0);
  });

  it('a form body express.urlencoded() already parsed is refused with 415, never created as a user', async () => {
    const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore() });
    const app = createApp();
    app.use(createApp.urlencoded({ extended: false }));
    app.use('/scim/v2', createScimRouter(scim));
    server = await listen(app);
    const reply = await fetch(`${server.origin}/scim/v2/Users`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'userName=form' });
    expect(reply.status).toBe(415);
    expect(((await reply.json()) as { status: string }).status).toBe('415');
    expect(((await (await fetch(`${server.origin}/scim/v2/Users`)).json()) as { totalResults: number }).totalResults).toBe(0);
  });

  it('survives a client that disconnects mid-body, and keeps serving', async () => {
    const scim = recordingHandler();
    const app = createApp();
    app.use('/scim/v2', createScimRouter(scim));
    server = await listen(app);
    await rawExchange(
      server.port,
      ['POST /scim/v2/Users HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/scim+json\r\nContent-Length: 1000\r\n\r\n{"userName":'],
      { hangUp: true },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(scim.requests).toHaveLength(0);
    expect((await fetch(`${server.origin}/scim/v2/Users`)).status).toBe(200);
  });

  it('answers a rejected handle() with a SCIM 500, as every adapter does', async () => {
    const app = createApp();
    const failing = { handle: () => Promise.reject(new Error('boom')) };
    app.use('/scim/v2', createScimRouter(failing));
    server = await listen(app);
    const response = await fetch(`${server.origin}/scim/v2/Users`);
    expect(response.status).toBe(500);
    expect(((await response.json()) as { status: string; detail: string })).toMatchObject({ status: '500', detail: 'Internal server error' });
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
    const app = createApp();
    app.use('/scim/v2', createScimRouter(slow));
    server = await listen(app);
    const { port, origin } = server;
    await rawExchange(port, ['GET /scim/v2/Users HTTP/1.1\r\nHost: localhost\r\n\r\n'], { hangUp: true });
    await done;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await fetch(`${origin}/health`)).status).toBe(404);
  });
});
