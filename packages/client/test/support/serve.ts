import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createScimServer, type ScimServerConfig } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { createFullServerConfig, type FullServerOptions } from '../../../../examples/full-server/src/index.js';

export interface Served {
  readonly url: string;
  close(): Promise<void>;
}

/** Listens on an ephemeral port of 127.0.0.1; `url` is the server's root. */
export async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Served> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A scimkit server at `<url>/scim/v2`. */
export async function serveScim(config: ScimServerConfig): Promise<Served> {
  const served = await listen(createNodeHandler(createScimServer(config), { basePath: '/scim/v2' }));
  return { url: `${served.url}/scim/v2`, close: served.close };
}

/** The full reference server (examples/full-server) at `<url>/scim/v2`. */
export function serveFullServer(options: FullServerOptions = {}): Promise<Served> {
  return serveScim(createFullServerConfig(options));
}
