import { createServer } from 'node:http';
import { createScimServer } from '@scimkit/core';
import { createPostgresLogStore, createRequestLog } from '@scimkit/console';
import { answerClientError } from '@scimkit/node';
import { createFullServerConfig } from './config.js';
import { fullServerListener } from './full-server-listener.js';
import { parseTenants } from './parse-tenants.js';
import { storeFromEnv } from './store-from-env.js';

/**
 * Serve the full reference server at http://$HOST:$PORT/scim/v2 (defaults 127.0.0.1:8080).
 * SCIM_TOKEN, when set, requires `Authorization: Bearer <token>` on every request; when unset the
 * server is open to anyone who can reach it, and says so loudly. SCIM_CURSOR_SECRET (32+ characters)
 * signs paging cursors so that they survive a restart and work across instances.
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

if ((token === undefined || token === '') && userTokens.length === 0) {
  console.warn('WARNING: SCIM_TOKEN is not set: this SCIM server is OPEN, anyone who can reach it can read and change every user and group.');
}
const selected = await storeFromEnv();
// The request log lives beside the store: in its PostgreSQL database, else in memory.
const requestLog =
  consolePassword === undefined || consolePassword === '' ? undefined : createRequestLog(selected.client === undefined ? {} : { store: createPostgresLogStore({ client: selected.client }) });
const scim = createScimServer({
  ...createFullServerConfig({
    ...(token === undefined || token === '' ? {} : { token }),
    userTokens,
    ...(cursorSecret === undefined || cursorSecret === '' ? {} : { cursorSecret }),
    ...(selected.store === undefined ? {} : { store: selected.store }),
  }),
  ...(requestLog === undefined ? {} : { requestLog }),
});
const server = createServer(
  fullServerListener(
    scim,
    requestLog === undefined || consolePassword === undefined ? undefined : { log: requestLog, password: consolePassword, ...(consoleSecret === undefined || consoleSecret === '' ? {} : { secret: consoleSecret }) },
  ),
);
// A request Node's parser refuses still gets a SCIM error body.
server.on('clientError', answerClientError);
server.listen(port, host, () => {
  const address = server.address();
  const shown = typeof address === 'object' && address !== null ? address.port : port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${shown}`;
  console.log(`SCIM full server (${selected.description}) listening at ${origin}/scim/v2`);
  if (requestLog !== undefined) console.log(`Console at ${origin}/console (log in with SCIM_CONSOLE_PASSWORD)`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => server.close(() => void (requestLog?.close() ?? Promise.resolve()).then(() => selected.close()).finally(() => process.exit(0))));
