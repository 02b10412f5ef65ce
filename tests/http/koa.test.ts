import { scimMiddleware } from '@scimkit/koa';
import Koa from 'koa';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSeedApp } from '../../examples/koa-app/src/seed-app.js';
import { describeGroups } from './groups.suite.js';
import { describeSeedService } from './seed-service.suite.js';

// The app `npm run start:koa` serves: the seed service under scimMiddleware(…, { prefix: '/scim/v2' }).
describeSeedService('@scimkit/koa', async (options) => {
  const server = createServer(createSeedApp(options).callback());
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

// The full server (examples/full-server) under scimMiddleware(…, { prefix: '/scim/v2' }).
describeGroups('@scimkit/koa', async (scim) => {
  const app = new Koa();
  app.use(scimMiddleware(scim, { prefix: '/scim/v2' }));
  const server = createServer(app.callback());
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
