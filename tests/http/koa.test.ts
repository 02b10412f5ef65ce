import { createSeedApp } from '../../examples/koa-app/src/seed-app.js';
import { describeSeedService } from './seed-service.suite.js';
import { serveOnEphemeralPort } from './serve-on-ephemeral-port.js';

// The app `npm run start:koa` serves: the seed service under scimMiddleware(…, { prefix: '/scim/v2' }).
describeSeedService('@scimkit/koa', (options) => serveOnEphemeralPort(createSeedApp(options).callback()));
