import { createServer } from 'node:http';
import { answerClientError, createNodeHandler } from '@scimkit/node';
import { parseTenants } from './parse-tenants.js';
import { createSeedService } from './seed-service.js';
import { storeFromEnv } from './store-from-env.js';

/**
 * `npm run start:tenants`: one server for the tenants of SCIM_TENANTS=acme:<token>,globex:<token>
 * at http://$HOST:$PORT/scim/v2 (defaults 127.0.0.1:8080). The bearer token picks the tenant;
 * tenants never see each other's users. SCIM_BEARER_TOKEN, when set too, acts for the default tenant.
 * SCIMKIT_STORE picks the store as for `npm start` (see store-from-env.ts).
 */
const host = process.env['HOST'] ?? '127.0.0.1';
const port = Number(process.env['PORT'] ?? 8080);
const parsed = parseTenants(process.env['SCIM_TENANTS'] ?? '');
if (!parsed.ok) {
  console.error(`SCIM_TENANTS: ${parsed.error}. Example: SCIM_TENANTS=acme:acme-secret,globex:globex-secret`);
  process.exit(1);
}
const token = process.env['SCIM_BEARER_TOKEN'];

const selected = await storeFromEnv();
const service = createSeedService({
  tenants: parsed.tenants,
  ...(token === undefined || token === '' ? {} : { bearerToken: token }),
  ...(selected.store === undefined ? {} : { store: selected.store }),
});
const server = createServer(createNodeHandler(service, { basePath: '/scim/v2' }));
server.on('clientError', answerClientError);
server.listen(port, host, () => {
  const address = server.address();
  const shown = typeof address === 'object' && address !== null ? address.port : port;
  const names = [...new Set(parsed.tenants.map((entry) => entry.tenant))].join(', ');
  console.log(`SCIM service for tenants ${names} listening at http://${host.includes(':') ? `[${host}]` : host}:${shown}/scim/v2 (${selected.description})`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => server.close(() => void selected.close().then(() => process.exit(0))));
}
