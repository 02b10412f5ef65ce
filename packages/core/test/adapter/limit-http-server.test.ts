import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { limitHttpServer, type HttpServerLimits } from '../../src/adapter/index.js';

/**
 * One client holding idle keep-alive and silent connections must not lock the others out
 * (docs/adapters/node.md): at the limit a newcomer takes the place of an idle or a silent connection,
 * and one address may hold only so many.
 */
const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

async function serve(limits: Partial<HttpServerLimits>, delayMs = 0): Promise<number> {
  const server = createServer((_request, response) => {
    setTimeout(() => response.end('ok'), delayMs);
  });
  servers.push(server);
  limitHttpServer(server, { headersTimeout: 10_000, requestTimeout: 60_000, keepAliveTimeout: 60_000, maxConnections: 3, ...limits });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
}

/** A raw connection; `closed` settles when the server closes it. */
async function open(port: number, localAddress = '127.0.0.1'): Promise<{ socket: Socket; closed: Promise<void>; received: () => string }> {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  sockets.push(socket);
  let data = '';
  socket.on('data', (chunk) => (data += chunk.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((done) => socket.once('close', () => done()));
  await new Promise<void>((done, fail) => {
    socket.once('connect', () => done());
    socket.once('error', fail);
  });
  return { socket, closed, received: () => data };
}

const GET = 'GET / HTTP/1.1\r\nHost: localhost\r\n\r\n';
const answered = async (connection: { received: () => string }): Promise<void> => {
  for (let i = 0; i < 200 && !connection.received().includes('ok'); i++) await new Promise((done) => setTimeout(done, 10));
};
const settled = (promise: Promise<void>, ms: number) => Promise.race([promise.then(() => true), new Promise<boolean>((done) => setTimeout(() => done(false), ms))]);

/** A newcomer sends one GET: true when it is answered, false when its connection is closed first. */
async function served(port: number, localAddress?: string): Promise<boolean> {
  const connection = await open(port, localAddress);
  connection.socket.write(GET);
  await Promise.race([answered(connection), connection.closed]);
  return connection.received().includes('200 OK');
}

describe('limitHttpServer at its connection limit', () => {
  it('closes an idle keep-alive connection to admit a newcomer', async () => {
    const port = await serve({ maxConnections: 3, maxConnectionsPerAddress: 10 });
    const idle = await Promise.all([1, 2, 3].map(() => open(port)));
    for (const connection of idle) connection.socket.write(GET);
    await Promise.all(idle.map(answered));
    expect(await served(port)).toBe(true);
    const closed = await Promise.all(idle.map((connection) => settled(connection.closed, 500)));
    expect(closed.filter(Boolean)).toHaveLength(1);
  });

  it('closes a connection that sent nothing once it is past silentGraceMs, not before', async () => {
    const port = await serve({ maxConnections: 3, maxConnectionsPerAddress: 10, silentGraceMs: 200 });
    const silent = await Promise.all([1, 2, 3].map(() => open(port)));
    expect(await served(port)).toBe(false);
    await new Promise((done) => setTimeout(done, 250));
    expect(await served(port)).toBe(true);
    expect((await Promise.all(silent.map((connection) => settled(connection.closed, 500)))).filter(Boolean)).toHaveLength(1);
  });

  it('refuses a newcomer when every connection is in a request', async () => {
    const port = await serve({ maxConnections: 2, maxConnectionsPerAddress: 10, silentGraceMs: 0 }, 400);
    const busy = await Promise.all([1, 2].map(() => open(port)));
    for (const connection of busy) connection.socket.write(GET);
    await new Promise((done) => setTimeout(done, 50));
    expect(await served(port)).toBe(false);
    await Promise.all(busy.map(answered));
    expect(busy.every((connection) => connection.received().includes('200 OK'))).toBe(true);
  });

  it('caps the connections of one address; another address still gets in', async () => {
    const port = await serve({ maxConnections: 10, maxConnectionsPerAddress: 2 }, 400);
    const busy = await Promise.all([1, 2].map(() => open(port)));
    for (const connection of busy) connection.socket.write(GET);
    await new Promise((done) => setTimeout(done, 50));
    expect(await served(port)).toBe(false);
    expect(await served(port, '127.0.0.2')).toBe(true);
  });
});
