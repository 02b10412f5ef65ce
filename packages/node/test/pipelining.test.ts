import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, userResourceType, type ScimRequest } from '@scimkit/core';
import { createNodeHandler, type NodeHandlerOptions } from '@scimkit/node';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
let running: Server | undefined;
const sockets: Socket[] = [];

/** The seeded server behind the Node adapter, counting the requests that reach `handle()`. */
async function serve(users: number, options: NodeHandlerOptions = {}): Promise<{ port: number; handled: () => number }> {
  const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore() });
  const note = 'x'.repeat(2_000);
  for (let i = 0; i < users; i++) {
    const body = JSON.stringify({ schemas: [USER], userName: `user${i}`, displayName: note, title: note });
    await scim.handle({ method: 'POST', path: '/Users', headers: { 'content-type': 'application/scim+json' }, body });
  }
  let handled = 0;
  const counting = { handle: (request: ScimRequest) => (handled++, scim.handle(request)) };
  running = createServer(createNodeHandler(counting, { basePath: '/scim/v2', ...options }));
  await new Promise<void>((resolve) => running!.listen(0, '127.0.0.1', resolve));
  return { port: (running.address() as AddressInfo).port, handled: () => handled };
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  running?.closeAllConnections();
  await new Promise<void>((resolve) => (running ? running.close(() => resolve()) : resolve()));
  running = undefined;
});

const pipelined = (count: number, target: string): string => `GET ${target} HTTP/1.1\r\nHost: localhost\r\n\r\n`.repeat(count);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createNodeHandler with pipelined requests (issue 14 #4)', () => {
  it('stops building responses for a client that pipelines and never reads', async () => {
    // 300 pipelined GET /Users?count=200 over 200 users of ~4 KB: ~800 KB a response, 240 MB in all.
    const { port, handled } = await serve(200);
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    socket.pause(); // never read
    await new Promise<void>((resolve) => socket.on('connect', resolve));
    socket.write(pipelined(300, '/scim/v2/Users?count=200'));
    await sleep(1_500);
    // Served one at a time while the socket takes the bytes; then the client's full buffers stop it.
    expect(handled()).toBeLessThan(20);
  });

  it('answers every pipelined request of a client that reads, in order', async () => {
    const { port, handled } = await serve(3);
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => (received += data));
    socket.write(pipelined(4, '/scim/v2/Users?count=1') + pipelined(1, '/scim/v2/Users/missing'));
    for (let waited = 0; waited < 5_000 && (received.match(/HTTP\/1\.1 /g) ?? []).length < 5; waited += 20) await sleep(20);
    expect(received.match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200', 'HTTP/1.1 200', 'HTTP/1.1 200', 'HTTP/1.1 404']);
    expect(handled()).toBe(5);
  });

  it('answers 503 and closes the connection past maxPipelinedRequests', async () => {
    const { port } = await serve(50, { maxPipelinedRequests: 2 });
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => (received += data));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(pipelined(10, '/scim/v2/Users?count=50'));
    await closed;
    const statuses = received.match(/HTTP\/1\.1 \d{3}/g);
    expect(statuses?.slice(0, 3)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200', 'HTTP/1.1 200']);
    expect(statuses?.[3]).toBe('HTTP/1.1 503');
    expect(statuses).toHaveLength(4);
    expect(received).toContain('"status":"503"');
  });
});
