import { nodeListener } from '../../examples/fetch-app/src/node-listener.js';
import { createSeedApp } from '../../examples/fetch-app/src/seed-app.js';
import { describeSeedService } from './seed-service.suite.js';
import { serveAtScimV2 } from './support/serve-at-scim-v2.js';

// The app `npm run start:fetch` serves: the seed service through createFetchHandler on Hono, on Node via @hono/node-server.
describeSeedService('@scimkit/fetch (Hono on Node)', (options) => serveAtScimV2(nodeListener(createSeedApp(options))));
