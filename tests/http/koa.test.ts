import { createScimMiddleware } from '@scimkit/koa';
import Koa from 'koa';
import { createSeedApp } from '../../examples/koa-app/src/seed-app.js';
import { describeGroups } from './groups.suite.js';
import { describeSeedService } from './seed-service.suite.js';
import { serveAtScimV2 } from './support/serve-at-scim-v2.js';

// The app `npm run start:koa` serves: the seed service under createScimMiddleware(…, { basePath: '/scim/v2' }).
describeSeedService('@scimkit/koa', (options) => serveAtScimV2(createSeedApp(options).callback()));

// The full server (examples/full-server) under createScimMiddleware(…, { basePath: '/scim/v2' }).
describeGroups('@scimkit/koa', async (scim) => {
  const app = new Koa();
  app.use(createScimMiddleware(scim, { basePath: '/scim/v2' }));
  return serveAtScimV2(app.callback());
});
