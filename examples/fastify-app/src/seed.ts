import { answerClientError, limitHttpServer } from '@scimkit/fastify';
import { createSeedApp } from './seed-app.js';

/**
 * `npm run start:fastify`: the seed service on Fastify at http://$HOST:$PORT/scim/v2 (defaults
 * 127.0.0.1:8080). SCIM_BEARER_TOKEN, when set, requires `Authorization: Bearer <token>`.
 */
const host = process.env['HOST'] ?? '127.0.0.1';
const port = Number(process.env['PORT'] ?? 8080);
const token = process.env['SCIM_BEARER_TOKEN'];

const app = await createSeedApp(token === undefined || token === '' ? {} : { bearerToken: token });
// Header and request timeouts, idle keep-alive and a connection limit (DEFAULT_HTTP_SERVER_LIMITS, docs/adapters/node.md).
limitHttpServer(app.server);
// A request Node's parser refuses (a lowercase or unknown method, oversized headers) still gets a SCIM error body.
app.server.on('clientError', answerClientError);
await app.listen({ port, host });
const address = app.server.address();
const shown = typeof address === 'object' && address !== null ? address.port : port;
console.log(`SCIM service (Fastify) listening at http://${host.includes(':') ? `[${host}]` : host}:${shown}/scim/v2`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
