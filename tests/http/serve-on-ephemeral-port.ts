import type { RequestListener } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StartedService } from './seed-service.suite.js';

/** Serves a framework's request listener on 127.0.0.1 and an ephemeral port, SCIM under /scim/v2. */
export async function serveOnEphemeralPort(listener: RequestListener): Promise<StartedService> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/scim/v2`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
