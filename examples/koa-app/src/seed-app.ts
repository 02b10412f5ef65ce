import { createScimMiddleware } from '@scimkit/koa';
import Koa from 'koa';
import { createSeedService, type SeedServiceOptions } from '../../seed-service/src/index.js';

/** The seed service (examples/seed-service) served by Koa under /scim/v2. */
export function createSeedApp(options: SeedServiceOptions = {}): Koa {
  const app = new Koa();
  app.use(createScimMiddleware(createSeedService(options), { basePath: '/scim/v2' }));
  return app;
}
