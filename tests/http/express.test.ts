import { scimRouter } from '@scimkit/express';
import express from 'express';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSeedApp } from '../../examples/express-app/src/seed-app.js';
import { describeGroups } from './groups.suite.js';
import { describeSeedService } from './seed-service.suite.js';

// The app `npm run start:express` serves: the seed service mounted with app.use('/scim/v2', scimRouter(…)).
describeSeedService('@scimkit/express', async (options) => {
  const server = createServer(createSeedApp(options));
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

// The full server (examples/full-server) mounted with app.use('/scim/v2', scimRouter(…)).
describeGroups('@scimkit/express', async (scim) => {
  const app = express();
  app.use('/scim/v2', scimRouter(scim));
  const server = createServer(app);
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
