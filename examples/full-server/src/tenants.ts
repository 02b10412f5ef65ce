import { createServer } from 'node:http';
import { bearerToken, createScimServer } from '@scimkit/core';
import { answerClientError, createNodeHandler } from '@scimkit/node';
import { createFullServerConfig } from './config.js';
import { parseTenants } from './parse-tenants.js';
import { storeFromEnv } from './store-from-env.js';
import { withHealthEndpoints } from './health-endpoints.js';

/**
 * `npm run start:tenants`: the full reference server for the tenants of
 * SCIM_TENANTS=acme:<token>,globex:<token> at http://$HOST:$PORT/scim/v2 (defaults 127.0.0.1:8080).
 * The bearer token picks the tenant; tenants never see each other's users and groups.
 */
const host = process.env['HOST'] ?? '127.0.0.1';
const port = Number(process.env['PORT'] ?? 8080);
const parsed = parseTenants(process.env['SCIM_TENANTS'] ?? '');
if (!parsed.ok) {
  console.error(`SCIM_TENANTS: ${parsed.error}. Example: SCIM_TENANTS=acme:acme-secret,globex:globex-secret`);
  process.exit(1);
}

const selected = await storeFromEnv();
const scim = createScimServer({
  ...createFullServerConfig(selected.store === undefined ? {} : { store: selected.store }),
  // Each token stands for its tenant (and names it as the principal in change events).
  ...bearerToken({ tokens: parsed.tenants.map(({ tenant, token }) => ({ token, tenant, principal: tenant })) }),
});
// GET /livez and /readyz for an orchestrator's probes (docs/operations/database-failures.md).
const server = createServer(withHealthEndpoints(createNodeHandler(scim, { basePath: '/scim/v2' }), selected.ready));
// A request Node's parser refuses still gets a SCIM error body.
server.on('clientError', answerClientError);
server.listen(port, host, () => {
  const address = server.address();
  const shown = typeof address === 'object' && address !== null ? address.port : port;
  const names = [...new Set(parsed.tenants.map((entry) => entry.tenant))].join(', ');
  console.log(`SCIM full server for tenants ${names} listening at http://${host.includes(':') ? `[${host}]` : host}:${shown}/scim/v2`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => void selected.close().finally(() => process.exit(0))));
