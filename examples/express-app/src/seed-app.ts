import { createScimRouter } from '@scimkit/express';
import express, { type Express } from 'express';
import { createSeedService, type SeedServiceOptions } from '../../seed-service/src/index.js';

/** The seed service (examples/seed-service) mounted on Express at /scim/v2. */
export function createSeedApp(options: SeedServiceOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use('/scim/v2', createScimRouter(createSeedService(options)));
  return app;
}
