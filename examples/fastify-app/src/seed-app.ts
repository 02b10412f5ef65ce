import { scimFrameworkErrors, createScimPlugin } from '@scimkit/fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import { createSeedService, type SeedServiceOptions } from '../../seed-service/src/index.js';

/** The seed service (examples/seed-service) as a Fastify plugin at /scim/v2. */
export async function createSeedApp(options: SeedServiceOptions = {}): Promise<FastifyInstance> {
  // frameworkErrors: a request Fastify refuses before routing (broken percent-encoding) still gets a SCIM error.
  const app = Fastify({ frameworkErrors: scimFrameworkErrors });
  await app.register(createScimPlugin(createSeedService(options)), { prefix: '/scim/v2' });
  return app;
}
