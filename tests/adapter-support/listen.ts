import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  readonly origin: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Serves `listener` on an ephemeral port of 127.0.0.1. */
export async function listen(listener: RequestListener): Promise<Listening> {
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/** The part of a Fastify instance {@link listenFastify} uses. */
interface FastifyLike {
  readonly server: Server;
  listen(options: { port: number; host: string }): Promise<unknown>;
  close(): Promise<unknown>;
}

/** Starts a Fastify app (its own `node:http` server) on an ephemeral port of 127.0.0.1. */
export async function listenFastify(app: FastifyLike): Promise<Listening> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      app.server.closeAllConnections();
      await app.close();
    },
  };
}
