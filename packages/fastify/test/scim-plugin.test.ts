import type { AddressInfo } from 'node:net';
import fastify5 from 'fastify';
import fastify4 from 'fastify4';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, userResourceType } from '@scimkit/core';
import type { ScimHandler } from '@scimkit/core/adapter';
import { createScimPlugin, scimFrameworkErrors, scimPlugin } from '@scimkit/fastify';
import { rawExchange } from '../../../tests/adapter-support/raw-exchange.js';
import { countingSeededHandler, neverReading, pipelined, readStatuses } from '../../../tests/adapter-support/pipelining.js';
import { recordingHandler } from '../../../tests/adapter-support/recording-handler.js';

const SCIM_JSON = { 'Content-Type': 'application/scim+json' };
const userJson = (userName = 'bjensen') => JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName });
const scim = () => createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), limits: { maxBodyBytes: 10_000 } });

type Factory = typeof fastify5;

describe.each([
  ['Fastify 5', fastify5],
  ['Fastify 4', fastify4 as unknown as Factory],
] as const)('createScimPlugin on %s', (_name, Fastify) => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  async function start(server: ScimHandler, register: (app: ReturnType<Factory>) => Promise<void> | void = (app) => void app.register(createScimPlugin(server), { prefix: '/scim/v2' })) {
    const app = Fastify({ frameworkErrors: scimFrameworkErrors });
    await register(app);
    app.post('/app/echo', async (request) => ({ got: request.body }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    close = async () => {
      app.server.closeAllConnections();
      await app.close();
    };
    const { port } = app.server.address() as AddressInfo;
    return { origin: `http://127.0.0.1:${port}`, port };
  }

  it('passes method, the path under the prefix, the decoded query, headers, raw bytes and the mount URL', async () => {
    const recorder = recordingHandler();
    const { origin } = await start(recorder);
    const query = 'filter=userName%20eq%20%22bj%2Bx%40example.com%22&attributes=userName&attributes=name.givenName';
    expect((await fetch(`${origin}/scim/v2/Users/2819c223%2F7f76?${query}`, { headers: { 'X-Custom': 'yes' } })).status).toBe(200);
    const request = recorder.requests[0]!;
    expect(request).toMatchObject({ method: 'GET', path: '/Users/2819c223%2F7f76', baseUrl: `${origin}/scim/v2` });
    expect({ ...request.query }).toEqual({ filter: 'userName eq "bj+x@example.com"', attributes: ['userName', 'name.givenName'] });
    expect(request.headers?.['x-custom']).toBe('yes');
    expect(request.body).toBeUndefined();
    await fetch(`${origin}/scim/v2/Users`, { method: 'POST', headers: SCIM_JSON, body: userJson() });
    expect(new TextDecoder().decode(recorder.requests[1]!.body as Uint8Array)).toBe(userJson());
    await fetch(`${origin}/scim/v2`);
    expect(recorder.requests[2]!.path).toBe('/');
  });

  it('answers a malformed body with a SCIM 400 invalidSyntax for scim+json and json, and leaves the app its JSON parser', async () => {
    const { origin } = await start(scim());
    for (const headers of [SCIM_JSON, { 'Content-Type': 'application/json' }]) {
      const reply = await fetch(`${origin}/scim/v2/Users`, { method: 'POST', headers, body: '{"userName":' });
      expect(reply.status).toBe(400);
      expect(((await reply.json()) as { scimType: string }).scimType).toBe('invalidSyntax');
    }
    const form = await fetch(`${origin}/scim/v2/Users`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'userName=x' });
    expect(form.status).toBe(415);
    expect(form.headers.get('content-type')).toContain('application/scim+json');
    const app = await fetch(`${origin}/app/echo`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' });
    expect(await app.json()).toEqual({ got: { a: 1 } });
  });

  it('answers 413 past maxBodyBytes, declared or sent, closing the connection', async () => {
    const { origin, port } = await start(scim());
    const big = await fetch(`${origin}/scim/v2/Users`, { method: 'POST', headers: SCIM_JSON, body: userJson('x'.repeat(20_000)) });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { status: string }).status).toBe('413');
    const declared = await rawExchange(port, ['POST /scim/v2/Users HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/scim+json\r\nContent-Length: 50000000\r\n\r\n']);
    expect(declared).toMatch(/^HTTP\/1\.1 413 /);
    expect(declared.toLowerCase()).toContain('connection: close');
  });

  it('checks the Host header: invalid is 400, missing keeps the prefix on localhost', async () => {
    const { port } = await start(scim());
    const post = (host: string | undefined, version = '1.1') => {
      const body = userJson(`u${Math.random()}`);
      return rawExchange(port, [`POST /scim/v2/Users HTTP/${version}\r\n${host === undefined ? '' : `Host: ${host}\r\n`}Content-Type: application/scim+json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`]);
    };
    for (const host of ['user@evil', 'evil.example/x?']) expect(await post(host), host).toMatch(/^HTTP\/1\.1 400 /);
    expect(await post(undefined, '1.0')).toMatch(/\r\nlocation: http:\/\/localhost\/scim\/v2\/Users\//i);
  });

  it('serves methods Fastify does not route, broken percent-encoding and long ids as SCIM errors', async () => {
    const { origin } = await start(scim());
    const purge = await fetch(`${origin}/scim/v2/Users`, { method: 'PURGE' });
    expect(purge.status).toBe(405);
    expect(purge.headers.get('allow')).toBe('GET, POST');
    const bad = await fetch(`${origin}/scim/v2/Users/%ZZ`);
    expect(bad.status).toBe(404);
    expect(bad.headers.get('content-type')).toContain('application/scim+json');
    const long = await fetch(`${origin}/scim/v2/Users/${'a'.repeat(500)}`);
    expect(long.status).toBe(404);
    expect(((await long.json()) as { status: string }).status).toBe('404');
  });

  it('takes the mount URL from nested prefixes, and answers another spelling of it outside SCIM', async () => {
    const recorder = recordingHandler();
    const { origin } = await start(recorder, (app) =>
      void app.register(
        async (api: ReturnType<Factory>) => {
          await api.register(createScimPlugin(recorder), { prefix: '/scim/v2' });
        },
        { prefix: '/api' },
      ),
    );
    await fetch(`${origin}/api/scim/v2/Users`);
    expect(recorder.requests[0]!.baseUrl).toBe(`${origin}/api/scim/v2`);
    expect(recorder.requests[0]!.path).toBe('/Users');
    expect((await fetch(`${origin}/API/SCIM/V2/Users`)).status).toBe(404);
    expect(recorder.requests).toHaveLength(1);
  });
});

describe('createScimPlugin with pipelined requests (issue 14 #4)', () => {
  it('stops building responses for a client that pipelines and never reads, and answers a reading one in order', async () => {
    const { handler, handled } = await countingSeededHandler(200);
    const app = fastify5();
    await app.register(createScimPlugin(handler), { prefix: '/scim/v2' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const socket = await neverReading(port, pipelined(300, '/scim/v2/Users?count=200'));
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(handled()).toBeLessThan(20);
      expect(await readStatuses(port, pipelined(3, '/scim/v2/Users?count=1') + pipelined(1, '/scim/v2/Users/missing'), 4)).toEqual(['200', '200', '200', '404']);
    } finally {
      socket.destroy();
      app.server.closeAllConnections();
      await app.close();
    }
  });
});

describe('the plugin of the previous release', () => {
  it('still serves with app.register(scimPlugin, { prefix, server }), deprecated', async () => {
    const recorder = recordingHandler();
    const app = fastify5();
    await app.register(scimPlugin, { prefix: '/scim/v2', server: recorder });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as AddressInfo;
      expect((await fetch(`http://127.0.0.1:${port}/scim/v2/Users`)).status).toBe(200);
      expect(recorder.requests.map((request) => [request.path, request.baseUrl])).toEqual([['/Users', `http://127.0.0.1:${port}/scim/v2`]]);
    } finally {
      await app.close();
    }
  });
});
