import { createSeedApp } from '../../examples/express-app/src/seed-app.js';
import { describeSeedService } from './seed-service.suite.js';
import { serveOnEphemeralPort } from './serve-on-ephemeral-port.js';

// The app `npm run start:express` serves: the seed service mounted with app.use('/scim/v2', scimRouter(…)).
describeSeedService('@scimkit/express', (options) => serveOnEphemeralPort(createSeedApp(options)));
