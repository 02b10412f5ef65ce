import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, userResourceType } from '@scimkit/core';
import { answerClientError, createNodeHandler, type NodeHandlerOptions } from '@scimkit/node';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
let running: Server | undefined;

async function serve(options: NodeHandlerOptions = {}, withNext = false): Promise<string> {
  const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore(), limits: { maxBodyBytes: 10_000 } });
  const handler = createNodeHandler(scim, options);
  running = createServer((req, res) =>
    handler(req, res, withNext ? () => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('next') : undefined),
  );
  await new Promise<void>((resolve) => running!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(running.address() as AddressInfo).port}`;
}

afterEach(async () => {
  running?.closeAllConnections();
  await new Promise<void>((resolve) => (running ? running.close(() => resolve()) : resolve()));
  running = undefined;
});

/** Test bodies are arbitrary JSON. */
const json = (response: Response): Promise<any> => response.json();

const postUser = (url: string, userName: string, extra: Record<string, unknown> = {}) =>
  fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/scim+json' }, body: JSON.stringify({ schemas: [USER], userName, ...extra }) });

describe('createNodeHandler', () => {
  it('serves under basePath and builds locations from Host and basePath', async () => {
    const origin = await serve({ basePath: '/scim/v2/' });
    const created = await postUser(`${origin}/scim/v2/Users`, 'node');
    expect(created.status).toBe(201);
    const body = await json(created);
    expect(body.meta.location).toBe(`${origin}/scim/v2/Users/${body.id}`);
    expect(created.headers.get('location')).toBe(body.meta.location);
    expect(created.headers.get('content-type')).toBe('application/scim+json');
  });

  it('answers a SCIM 404 outside basePath, or hands over to next', async () => {
    const origin = await serve({ basePath: '/scim/v2' });
    for (const path of ['/other', '/scim/v2x/Users', '/scim']) {
      const reply = await fetch(`${origin}${path}`);
      expect(reply.status, path).toBe(404);
      expect((await json(reply)).schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
    }
    await running?.close();
    running?.closeAllConnections();
    const withNext = await serve({ basePath: '/scim/v2' }, true);
    expect(await (await fetch(`${withNext}/health`)).text()).toBe('next');
  });

  it('uses the baseUrl option for locations behind a proxy', async () => {
    const origin = await serve({ basePath: '/scim', baseUrl: 'https://idp.example.com/scim' });
    const body = await json(await postUser(`${origin}/scim/Users`, 'proxied'));
    expect(body.meta.location).toBe(`https://idp.example.com/scim/Users/${body.id}`);
  });

  it('decodes the query string; a repeated parameter reaches the core as a list', async () => {
    const origin = await serve();
    await postUser(`${origin}/Users`, 'q1', { title: 'T', displayName: 'D' });
    const reply = await fetch(`${origin}/Users?filter=${encodeURIComponent('userName eq "Q1"')}&attributes=title&attributes=displayName`);
    const body = await json(reply);
    expect(body.totalResults).toBe(1);
    expect(body.Resources[0].title).toBe('T');
    expect(body.Resources[0].displayName).toBe('D');
    expect(body.Resources[0].userName).toBeUndefined();
  });

  it('answers 413 as soon as the body passes maxBodyBytes and keeps serving', async () => {
    const origin = await serve({ maxBodyBytes: 1000 });
    for (const size of [5_000, 5_000_000]) {
      const response = await postUser(`${origin}/Users`, 'big', { displayName: 'x'.repeat(size) });
      expect(response.status).toBe(413);
      expect((await json(response)).status).toBe('413');
    }
    expect((await postUser(`${origin}/Users`, 'small')).status).toBe(201);
  });

  it('refuses a declared oversize body before it is sent, and closes the connection after any 413', async () => {
    await serve({ maxBodyBytes: 1000 });
    const { port } = running!.address() as AddressInfo;
    // Only the head is sent: the answer must come without waiting for the 100 MB body.
    const head = await rawExchange(port, 'POST /Users HTTP/1.1\r\nHost: x\r\nContent-Type: application/scim+json\r\nContent-Length: 100000000\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head.toLowerCase()).toContain('connection: close');
    expect(head).toContain('"detail":"The request body exceeds 1000 bytes."');
    // A chunked body that grows past the limit: 413, then the server closes rather than reading on.
    const chunk = 'x'.repeat(600);
    const chunked = await rawExchange(port, `POST /Users HTTP/1.1\r\nHost: x\r\nContent-Type: application/scim+json\r\nTransfer-Encoding: chunked\r\n\r\n258\r\n${chunk}\r\n258\r\n${chunk}\r\n`);
    expect(chunked).toMatch(/^HTTP\/1\.1 413 /);
    expect(chunked.toLowerCase()).toContain('connection: close');
  });

  it('answers 408 and closes the connection when the body never arrives (bodyTimeoutMs)', async () => {
    await serve({ bodyTimeoutMs: 100 });
    const { port } = running!.address() as AddressInfo;
    const started = Date.now();
    const reply = await rawExchange(port, 'POST /Users HTTP/1.1\r\nHost: x\r\nContent-Type: application/scim+json\r\nContent-Length: 50\r\n\r\n{"userName":');
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(reply).toContain('"status":"408"');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('answerClientError gives requests the HTTP parser refuses a SCIM error body, then closes', async () => {
    await serve();
    running!.on('clientError', answerClientError);
    const { port } = running!.address() as AddressInfo;
    for (const [request, status] of [
      ['get /Users HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['FOO /Users HTTP/1.1\r\nHost: x\r\n\r\n', 400],
      ['\u0000\u0001GARBAGE / HTTP/9.9\r\n\r\n', 400],
      [`GET /Users?filter=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431],
    ] as const) {
      const reply = await rawExchange(port, request);
      expect(reply, request.slice(0, 20)).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(reply).toContain('Content-Type: application/scim+json');
      const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as { schemas: string[]; status: string; detail: string };
      expect(body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
      expect(body.status).toBe(String(status));
      expect(body.detail).not.toBe('');
    }
    expect((await fetch(`http://127.0.0.1:${port}/Users`)).status).toBe(200);
  });

  it('accepts a request target in absolute form (RFC 9112 §3.2.2)', async () => {
    const origin = await serve({ basePath: '/scim/v2' });
    await postUser(`${origin}/scim/v2/Users`, 'absolute');
    const { port } = running!.address() as AddressInfo;
    const reply = await rawExchange(port, `GET http://127.0.0.1:${port}/scim/v2/Users?filter=userName%20eq%20%22absolute%22 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    expect(reply).toMatch(/^HTTP\/1\.1 200 /);
    expect(reply).toContain('"totalResults":1');
  });

  it('survives a client that disconnects mid-body and one that sends garbage', async () => {
    const origin = await serve();
    const { port } = running!.address() as AddressInfo;
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write('POST /Users HTTP/1.1\r\nHost: x\r\nContent-Type: application/scim+json\r\nContent-Length: 5000\r\n\r\n{"userName":');
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 20);
      });
    });
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.end('\u0000\u0001GARBAGE / HTTP/9.9\r\n\r\n'));
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
      socket.resume();
    });
    expect((await postUser(`${origin}/Users`, 'still-alive')).status).toBe(201);
    expect((await fetch(`${origin}/Users`)).status).toBe(200);
  });
});

/** Write raw bytes, keep the socket open, and collect what comes back until the server closes it. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => (received += data));
    socket.on('close', () => resolve(received));
    socket.on('error', () => resolve(received));
    socket.setTimeout(5_000, () => {
      socket.destroy();
      reject(new Error(`no close within 5 s; received ${JSON.stringify(received)}`));
    });
  });
}
