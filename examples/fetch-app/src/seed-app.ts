import { createFetchHandler } from '@scimkit/fetch';
import { Hono } from 'hono';
import { createSeedService, type SeedServiceOptions } from '../../seed-service/src/index.js';

/** The seed service (examples/seed-service) on Hono at /scim/v2: the same app runs on Node, Bun, Deno and Workers. */
export function createSeedApp(options: SeedServiceOptions = {}): Hono {
  const scim = createFetchHandler(createSeedService(options), { basePath: '/scim/v2' });
  const app = new Hono();
  // Every method on the mount point and below; Hono leaves the body unread, so the adapter streams it within its limit.
  app.all('/scim/v2', (c) => scim(c.req.raw));
  app.all('/scim/v2/*', (c) => scim(c.req.raw));
  return app;
}
