import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local HTTP receiver for tests: `handle` decides each answer; every request is recorded. */
export interface Receiver {
  readonly url: string;
  readonly requests: { readonly at: number; readonly headers: Record<string, string>; readonly body: string }[];
  handle: (request: { headers: Record<string, string>; body: string }, response: ServerResponse, socket: IncomingMessage['socket']) => void;
  close(): Promise<void>;
}

export async function startReceiver(handle: Receiver['handle'] = (_request, response) => void response.writeHead(204).end()): Promise<Receiver> {
  const receiver = { requests: [] as Receiver['requests'], handle } as Receiver & { url: string };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
      const body = Buffer.concat(chunks).toString('utf8');
      receiver.requests.push({ at: Date.now(), headers, body });
      receiver.handle({ headers, body }, response, request.socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
