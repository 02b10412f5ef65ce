import { answerClientError, limitHttpServer } from '@scimkit/koa';
import { createSeedApp } from './seed-app.js';

/**
 * `npm run start:koa`: the seed service on Koa at http://$HOST:$PORT/scim/v2 (defaults
 * 127.0.0.1:8080). SCIM_BEARER_TOKEN, when set, requires `Authorization: Bearer <token>`.
 */
const host = process.env['HOST'] ?? '127.0.0.1';
const port = Number(process.env['PORT'] ?? 8080);
const token = process.env['SCIM_BEARER_TOKEN'];

const app = createSeedApp(token === undefined || token === '' ? {} : { bearerToken: token });
const server = app.listen(port, host, () => {
  const address = server.address();
  const shown = typeof address === 'object' && address !== null ? address.port : port;
  console.log(`SCIM service (Koa) listening at http://${host.includes(':') ? `[${host}]` : host}:${shown}/scim/v2`);
});
// Header and request timeouts, idle keep-alive and a connection limit (DEFAULT_HTTP_SERVER_LIMITS, docs/adapters/node.md).
limitHttpServer(server);
// A request Node's parser refuses (a lowercase or unknown method, oversized headers) still gets a SCIM error body.
server.on('clientError', answerClientError);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
