import { createServer } from 'node:http';
import { createMemoryStore, createScimServer } from '@scimkit/core';
import { createPostgresLogStore, createRequestLog } from '@scimkit/console';
import { answerClientError, createNodeHandler } from '@scimkit/node';
import { createFullServerConfig } from './config.js';
import { fullServerListener } from './full-server-listener.js';
import { createFullServerOAuth, parseClients } from './oauth-clients.js';
import { parseTenants } from './parse-tenants.js';
import { storeFromEnv } from './store-from-env.js';
import { instanceOwner, startWebhooks, webhookSettings } from './webhooks-from-env.js';
import { createSetFeed, SET_JWKS_PATH, SET_POLL_PATH, setFeedSettings } from './set-feed.js';
import { withHealthEndpoints } from './health-endpoints.js';

/**
 * Serve the full reference server at http://$HOST:$PORT/scim/v2 (defaults 127.0.0.1:8080).
 * SCIM_TOKEN, when set, requires `Authorization: Bearer <token>` on every request; when unset the
 * server is open to anyone who can reach it, and says so loudly. SCIM_CURSOR_SECRET (32+ characters)
 * signs paging cursors so that they survive a restart and work across instances.
 * SCIM_CLIENTS=<client id>:<secret>[:<tenant>],… turns on OAuth client credentials: `POST /oauth/token`
 * and `/.well-known/jwks.json` on the same port (SCIM_ISSUER: the public origin, default
 * http://$HOST:$PORT). SCIM_RATE_LIMIT=<requests per second per tenant> turns on the rate limit.
 */
const host = process.env['HOST'] ?? '127.0.0.1';
const port = Number(process.env['PORT'] ?? 8080);
const token = process.env['SCIM_TOKEN'];
// SCIM_USER_TOKENS=<user id>:<token>,…: personal tokens, each standing for one User, for /Me
// (RFC 7644 §3.11). Same `name:token` syntax as SCIM_TENANTS, the name being a User id.
const personal = parseTenants(process.env['SCIM_USER_TOKENS'] ?? '');
if (process.env['SCIM_USER_TOKENS'] !== undefined && process.env['SCIM_USER_TOKENS'] !== '' && !personal.ok) {
  console.error(`SCIM_USER_TOKENS: ${personal.error}. Example: SCIM_USER_TOKENS=2819c223-7f76-453a-919d-413861904646:alice-secret`);
  process.exit(1);
}
const userTokens = personal.ok && process.env['SCIM_USER_TOKENS'] ? personal.tenants.map(({ tenant, token: secret }) => ({ userId: tenant, token: secret })) : [];
const cursorSecret = process.env['SCIM_CURSOR_SECRET'];
// SCIM_CONSOLE_PASSWORD: serve the console at /console (a login form), recording every request.
const consolePassword = process.env['SCIM_CONSOLE_PASSWORD'];
const consoleSecret = process.env['SCIM_CONSOLE_SECRET'];
if (consolePassword !== undefined && consolePassword !== '' && consolePassword.length < 12) {
  console.error('SCIM_CONSOLE_PASSWORD must be at least 12 characters.');
  process.exit(1);
}
const clientsText = process.env['SCIM_CLIENTS'] ?? '';
const clients = clientsText === '' ? { ok: true as const, clients: [] } : parseClients(clientsText);
if (!clients.ok) {
  console.error(`SCIM_CLIENTS: ${clients.error}. Example: SCIM_CLIENTS=entra:<a secret of 16+ characters>:acme`);
  process.exit(1);
}
const rateText = process.env['SCIM_RATE_LIMIT'] ?? '';
const rate = rateText === '' ? undefined : Number(rateText);
if (rate !== undefined && (!Number.isInteger(rate) || rate < 1)) {
  console.error('SCIM_RATE_LIMIT: a whole number of requests per second per tenant, e.g. SCIM_RATE_LIMIT=50');
  process.exit(1);
}
const oauth = clients.clients.length === 0 ? undefined : await createFullServerOAuth({ clients: clients.clients, issuer: process.env['SCIM_ISSUER'] || `http://${host.includes(':') ? `[${host}]` : host}:${port}` });

if ((token === undefined || token === '') && userTokens.length === 0 && oauth === undefined) {
  console.warn('WARNING: SCIM_TOKEN is not set: this SCIM server is OPEN, anyone who can reach it can read and change every user and group.');
}
// SCIM_WEBHOOK_URL + SCIM_WEBHOOK_SECRET (whsec_…): every event delivered there, signed (Standard Webhooks).
const webhook = webhookSettings();
if (webhook !== undefined && !webhook.ok) {
  console.error(webhook.error);
  process.exit(1);
}
// SCIM_SET_POLL_TOKEN (16+ characters): an RFC 8936 poll endpoint serving every event as an RFC 9967
// SET to the receiver holding that bearer token (SCIM_SET_AUDIENCE: the SETs' `aud`).
const setFeedConfig = setFeedSettings();
if (setFeedConfig !== undefined && !setFeedConfig.ok) {
  console.error(setFeedConfig.error);
  process.exit(1);
}
const selected = await storeFromEnv();
const store = selected.store ?? createMemoryStore();
// Who holds the outbox partitions this process delivers (SCIM_INSTANCE_ID; see instanceOwner).
const owner = instanceOwner(selected.exclusive);
const issuerOrigin = process.env['SCIM_ISSUER'];
const setFeed =
  setFeedConfig === undefined
    ? undefined
    : createSetFeed(store.outbox!, setFeedConfig, { ...(issuerOrigin ? { issuer: `${issuerOrigin}/scim/v2` } : {}), ...(owner === undefined ? {} : { owner }) });
// The request log lives beside the store: in its PostgreSQL database, else in memory.
const requestLog =
  consolePassword === undefined || consolePassword === '' ? undefined : createRequestLog(selected.client === undefined ? {} : { store: createPostgresLogStore({ client: selected.client }) });
const scim = createScimServer({
  ...createFullServerConfig({
    ...(token === undefined || token === '' ? {} : { token }),
    userTokens,
    ...(cursorSecret === undefined || cursorSecret === '' ? {} : { cursorSecret }),
    store,
    // Events when something consumes them; the SET feed is advertised in /ServiceProviderConfig (RFC 9967 §4).
    ...(webhook === undefined && setFeed === undefined ? {} : { events: setFeed === undefined ? {} : { securityEvents: { eventUris: setFeed.eventUris } } }),
    ...(oauth === undefined ? {} : { oauth: { verifier: oauth.verifier, tokenEndpointUrl: oauth.tokenEndpointUrl } }),
    ...(rate === undefined ? {} : { rateLimit: rate }),
  }),
  ...(requestLog === undefined ? {} : { requestLog }),
});
const webhooks = webhook === undefined ? undefined : startWebhooks(store, webhook, owner);
const dispatcher = webhooks?.dispatcher;
// The token endpoint and JWKS answer what is outside /scim/v2 and /console (docs/concepts/authentication.md).
const tokenHandler = oauth === undefined ? undefined : createNodeHandler(oauth.tokens);
// GET /livez and /readyz for an orchestrator's probes, before the rest (docs/operations/database-failures.md).
const listener = fullServerListener(
  scim,
  requestLog === undefined || consolePassword === undefined
    ? undefined
    : {
        log: requestLog,
        password: consolePassword,
        // SCIM_CONSOLE_ACTIONS=1: the console may redeliver webhooks and clear a tenant's log (read-only otherwise).
        actions: process.env['SCIM_CONSOLE_ACTIONS'] === '1',
        ...(consoleSecret === undefined || consoleSecret === '' ? {} : { secret: consoleSecret }),
        ...(webhooks === undefined ? {} : { deliveries: webhooks.deliveries }),
      },
  setFeed === undefined ? tokenHandler : setFeed.listener(tokenHandler),
);
const server = createServer(withHealthEndpoints(listener, selected.ready));
// A request Node's parser refuses still gets a SCIM error body.
server.on('clientError', answerClientError);
server.listen(port, host, () => {
  const address = server.address();
  const shown = typeof address === 'object' && address !== null ? address.port : port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${shown}`;
  console.log(`SCIM full server (${selected.description}) listening at ${origin}/scim/v2`);
  if (requestLog !== undefined) console.log(`Console at ${origin}/console (log in with SCIM_CONSOLE_PASSWORD)`);
  if (oauth !== undefined) console.log(`OAuth token endpoint: ${oauth.tokenEndpointUrl} (${clients.clients.length} client(s); secrets not shown)`);
  setFeed?.listening(origin);
  if (setFeed !== undefined) console.log(`RFC 8936 SET poll endpoint: ${origin}${SET_POLL_PATH} (bearer SCIM_SET_POLL_TOKEN; key at ${origin}${SET_JWKS_PATH})`);
  if (webhook?.ok) console.log(`delivering events to ${webhook.url}${selected.store === undefined ? ' (in-memory store: events are lost on restart)' : ''}`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () =>
    server.close(() => void Promise.all([dispatcher?.stop(), requestLog?.close()]).then(() => selected.close()).finally(() => process.exit(0))),
  );
}
