import { createScimRouter } from '@scimkit/express';
import express from 'express';
import { createSeedApp } from '../../examples/express-app/src/seed-app.js';
import { describeGroups } from './groups.suite.js';
import { describeSeedService } from './seed-service.suite.js';
import { serveAtScimV2 } from './support/serve-at-scim-v2.js';

// The app `npm run start:express` serves: the seed service mounted with app.use('/scim/v2', createScimRouter(…)).
describeSeedService('@scimkit/express', (options) => serveAtScimV2(createSeedApp(options)));

// The full server (examples/full-server) mounted with app.use('/scim/v2', createScimRouter(…)).
describeGroups('@scimkit/express', async (scim) => {
  const app = express();
  app.use('/scim/v2', createScimRouter(scim));
  return serveAtScimV2(app);
});
