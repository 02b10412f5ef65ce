import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeListener } from '../../examples/fetch-app/src/node-listener.js';
import { createSeedApp } from '../../examples/fetch-app/src/seed-app.js';
import { describeSeedService } from './seed-service.suite.js';

// The app `npm run start:fetch` serves: the seed service through createFetchHandler on Hono, on Node via @hono/node-server.
describeSeedService('@scimkit/fetch (Hono on Node)', async (options) => {
  const server = createServer(nodeListener(createSeedApp(options)));
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
});
