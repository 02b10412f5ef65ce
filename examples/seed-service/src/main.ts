import { createServer } from 'node:http';
import { answerClientError, createNodeHandler, limitHttpServer } from '@scimkit/node';
import { createSeedService } from './seed-service.js';
import { storeFromEnv } from './store-from-env.js';

/**
 * Serve the seed service at http://$HOST:$PORT/scim/v2 (defaults 127.0.0.1:8080).
 * SCIM_BEARER_TOKEN, when set, requires `Authorization: Bearer <token>` on every request but a read
 * of /ServiceProviderConfig. SCIMKIT_STORE picks the store: unset for memory, `pglite:./data` for a
 * PGlite directory, `postgres://…` for a PostgreSQL server (see store-from-env.ts).
 */
const host = process.env['HOST'] ?? '127.0.0.1';
const port = Number(process.env['PORT'] ?? 8080);
const token = process.env['SCIM_BEARER_TOKEN'];

const selected = await storeFromEnv();
const service = createSeedService({
  ...(token === undefined || token === '' ? {} : { bearerToken: token }),
  ...(selected.store === undefined ? {} : { store: selected.store }),
});
const server = createServer(createNodeHandler(service, { basePath: '/scim/v2' }));
// Header and request timeouts, idle keep-alive and a connection limit (DEFAULT_HTTP_SERVER_LIMITS, docs/adapters/node.md).
limitHttpServer(server);
// A request Node's parser refuses (a lowercase or unknown method, oversized headers) still gets a SCIM error body.
server.on('clientError', answerClientError);
server.listen(port, host, () => {
  const address = server.address();
  const shown = typeof address === 'object' && address !== null ? address.port : port;
  console.log(`SCIM service listening at http://${host.includes(':') ? `[${host}]` : host}:${shown}/scim/v2 (${selected.description})`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => server.close(() => void selected.close().then(() => process.exit(0))));
}
