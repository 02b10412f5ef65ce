import { connect, type Socket } from 'node:net';
import { createMemoryStore, createScimServer, userResourceType, type ScimRequest } from '@scimkit/core';
import type { ScimHandler } from '@scimkit/core/adapter';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

/** A server holding `users` users of ~4 KB each, and a handler in front of it counting the requests that reach `handle()`. */
export async function countingSeededHandler(users: number): Promise<{ handler: ScimHandler; handled: () => number }> {
  const scim = createScimServer({ resourceTypes: [userResourceType], store: createMemoryStore() });
  const note = 'x'.repeat(2_000);
  for (let i = 0; i < users; i++) {
    const body = JSON.stringify({ schemas: [USER], userName: `user${i}`, displayName: note, title: note });
    await scim.handle({ method: 'POST', path: '/Users', headers: { 'content-type': 'application/scim+json' }, body });
  }
  let handled = 0;
  return { handler: { handle: (request: ScimRequest) => (handled++, scim.handle(request)) }, handled: () => handled };
}

/** `count` pipelined GETs of `target` in one write. */
export const pipelined = (count: number, target: string): string => `GET ${target} HTTP/1.1\r\nHost: localhost\r\n\r\n`.repeat(count);

/** Opens a connection that writes `data` and never reads what comes back. */
export async function neverReading(port: number, data: string): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.pause();
  await new Promise<void>((resolve) => socket.on('connect', resolve));
  socket.write(data);
  return socket;
}

/** Writes `data` and collects what comes back until `statuses` responses have arrived (or `timeoutMs`); the status codes in order. */
export async function readStatuses(port: number, data: string, statuses: number, timeoutMs = 5_000): Promise<string[]> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.write(data);
  const started = Date.now();
  while (Date.now() - started < timeoutMs && (received.match(/HTTP\/1\.1 \d{3}/g) ?? []).length < statuses) await new Promise((resolve) => setTimeout(resolve, 20));
  socket.destroy();
  return (received.match(/HTTP\/1\.1 (\d{3})/g) ?? []).map((line) => line.slice(9));
}
