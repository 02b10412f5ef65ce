import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeHandler } from '@scimkit/node';
import { createSeedService } from '../../examples/seed-service/src/index.js';
import { describeGroups } from './groups.suite.js';
import { describeSeedService } from './seed-service.suite.js';

describeSeedService('@scimkit/node', async (options) => {
  const server = createServer(createNodeHandler(createSeedService(options), { basePath: '/scim/v2' }));
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

describeGroups('@scimkit/node', async (scim) => {
  const server = createServer(createNodeHandler(scim, { basePath: '/scim/v2' }));
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
