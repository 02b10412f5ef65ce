import type { AddressInfo } from 'node:net';
import { createSeedApp } from '../../examples/fastify-app/src/seed-app.js';
import { describeSeedService } from './seed-service.suite.js';

// The app `npm run start:fastify` serves: the seed service registered with app.register(createScimPlugin(server), { prefix: '/scim/v2' }).
describeSeedService('@scimkit/fastify', async (options) => {
  const app = await createSeedApp(options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/scim/v2`,
    close: async () => {
      app.server.closeAllConnections();
      await app.close();
    },
  };
});
