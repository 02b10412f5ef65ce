import { connect } from 'node:net';
import type { ScimRequest, ScimResponse } from '@scimkit/core';
import type { AdapterOptions, ScimHandler } from '@scimkit/core/adapter';
import { afterEach, describe, expect, it } from 'vitest';
import { FIVE_ADAPTERS } from '../adapter-support/five-adapters.js';
import type { Listening } from '../adapter-support/listen.js';

const OK: ScimResponse = { status: 200, headers: { 'Content-Type': 'application/scim+json' }, body: '{}' };

/** A handler recording, in order, what the adapter asked of it: `admit <path>`, `handle <path>`, `answered <path>`. */
function tracingHandler(options: { handleMs?: number; refuse?: (request: ScimRequest) => boolean } = {}) {
  const events: string[] = [];
  const requests: ScimRequest[] = [];
  const handler: ScimHandler = {
    config: { limits: { maxBodyBytes: 1_000 } },
    admit(request) {
      events.push(`admit ${request.path}`);
      return Promise.resolve(options.refuse?.(request) === true ? { status: 429, headers: { 'Content-Type': 'application/scim+json', 'Retry-After': '1' }, body: '{"status":"429"}' } : undefined);
    },
    async handle(request) {
      events.push(`handle ${request.path}`);
      requests.push(request);
      if (options.handleMs !== undefined) await new Promise((resolve) => setTimeout(resolve, options.handleMs));
      events.push(`answered ${request.path}`);
      return OK;
    },
  };
  return { handler, events, requests };
}

/**
 * Writes `data` on one connection and collects what comes back until `answers` responses have
 * arrived whole (a `Content-Length` body each), the server ends the connection, or 3 s pass.
 */
function exchange(port: number, data: string, answers: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let received = '';
    const done = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(received);
    };
    const timer = setTimeout(done, 3_000);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (complete(received) >= answers) done();
    });
    socket.on('error', () => undefined);
    socket.on('end', done);
    socket.on('close', done);
    socket.on('connect', () => socket.write(data));
  });
}

/** How many whole responses `received` holds. */
function complete(received: string): number {
  let count = 0;
  let at = 0;
  for (;;) {
    const head = received.indexOf('\r\n\r\n', at);
    if (head === -1) return count;
    const length = /content-length: *(\d+)/i.exec(received.slice(at, head))?.[1];
    const end = head + 4 + Number(length ?? 0);
    if (end > received.length) return count;
    count++;
    at = end;
  }
}

/** Sends the headers and part of the body of a request, then resets the connection: a client gone mid-body. */
async function goneMidBody(port: number, data: string): Promise<void> {
  const socket = connect({ port, host: '127.0.0.1' });
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.on('connect', resolve));
  socket.write(data);
  await new Promise((resolve) => setTimeout(resolve, 100));
  socket.resetAndDestroy();
  await new Promise((resolve) => setTimeout(resolve, 200));
}

const statuses = (received: string): string[] => (received.match(/HTTP\/1\.1 (\d{3})/g) ?? []).map((line) => line.slice(9));
const post = (path: string, body: string, length = Buffer.byteLength(body)): string =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/scim+json\r\nContent-Length: ${length}\r\n\r\n${body}`;

/**
 * The five adapters share one way from a framework's request to `handle()`
 * (`createAdapterPipeline`, `@scimkit/core/adapter`): the same option names, the same mount path,
 * the same limits, the same answer to a body cut short, and the same order: queue, admit, body.
 */
describe.each(FIVE_ADAPTERS)('%s, like every adapter', (_name, serveThrough) => {
  let listening: Listening | undefined;
  afterEach(async () => {
    await listening?.close();
    listening = undefined;
  });
  async function serve(handler: ScimHandler, options: AdapterOptions = {}): Promise<Listening> {
    listening = await serveThrough(handler, options);
    return listening;
  }

  it('serves under basePath, with the path below it and the mount URL, and nothing outside it', async () => {
    const { handler, requests } = tracingHandler();
    const { origin } = await serve(handler, { basePath: '/scim/v2/' });
    expect((await fetch(`${origin}/scim/v2/Users?filter=${encodeURIComponent('userName eq "a"')}`)).status).toBe(200);
    expect((await fetch(`${origin}/scim/v2`)).status).toBe(200);
    for (const outside of ['/scim/v2x/Users', '/scim', '/other']) expect((await fetch(`${origin}${outside}`)).status, outside).toBe(404);
    expect(requests.map((request) => [request.path, request.baseUrl, request.query])).toEqual([
      ['/Users', `${origin}/scim/v2`, { filter: 'userName eq "a"' }],
      ['/', `${origin}/scim/v2`, {}],
    ]);
  });

  it('answers a body past maxBodyBytes 413 with Connection: close, declared or sent, without handle()', async () => {
    const { handler, requests } = tracingHandler();
    const { port } = await serve(handler, { maxBodyBytes: 100 });
    const declared = await exchange(port, post('/Users', '{}', 5_000), 1);
    expect(statuses(declared)).toEqual(['413']);
    expect(declared.toLowerCase()).toContain('connection: close');
    const chunked = `POST /Users HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n${'c8\r\n' + 'x'.repeat(200) + '\r\n'}`;
    const sent = await exchange(port, chunked, 1);
    expect(statuses(sent)).toEqual(['413']);
    expect(requests).toEqual([]);
    // The server's own limit is the default.
    await listening?.close();
    const fromServer = await serve(handler);
    expect(statuses(await exchange(fromServer.port, post('/Users', 'x'.repeat(1_001)), 1))).toEqual(['413']);
    expect(requests).toEqual([]);
  });

  it('leaves a body cut short by a client that went away unhandled, and keeps serving', async () => {
    const { handler, requests } = tracingHandler();
    const { origin, port } = await serve(handler);
    await goneMidBody(port, post('/Users', '{"userName":', 500));
    expect(requests).toEqual([]);
    expect((await fetch(`${origin}/Users`)).status).toBe(200);
    expect(requests.map((request) => request.path)).toEqual(['/Users']);
  });

  it('asks admit() before reading a byte of the body, and sends its refusal as is', async () => {
    const { handler, events } = tracingHandler({ refuse: (request) => request.path === '/Groups' });
    const { port } = await serve(handler);
    // Headers only: the body never comes, yet the refusal does.
    const refused = await exchange(port, post('/Groups', '', 100), 1);
    expect(statuses(refused)).toEqual(['429']);
    expect(events).toEqual(['admit /Groups']);
  });
});

describe.each(FIVE_ADAPTERS.filter(([name]) => name !== '@scimkit/fetch'))('%s, like every adapter that sees the connection', (_name, serveThrough) => {
  let listening: Listening | undefined;
  afterEach(async () => {
    await listening?.close();
    listening = undefined;
  });

  it('answers the pipelined requests of a connection in turn: the next is admitted and its body read only after the previous answer', async () => {
    const { handler, events } = tracingHandler({ handleMs: 150 });
    listening = await serveThrough(handler, { maxPipelinedRequests: 1 });
    const received = await exchange(listening.port, post('/first', '{}') + post('/second', '{}') + post('/third', '{}'), 3);
    // One may wait behind the one being answered; the third is refused 503 and the connection closes.
    expect(statuses(received)).toEqual(['200', '200', '503']);
    expect(events).toEqual(['admit /first', 'handle /first', 'answered /first', 'admit /second', 'handle /second', 'answered /second']);
  });
});
