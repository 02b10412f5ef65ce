/**
 * OAuth part (`npm run bench -- oauth`): what `@scimkit/oauth` costs, bounded (about 1 s per measure,
 * BENCH_RUNS runs, default 3 here). Token issuance per second through the token endpoint's
 * `handle()` (client secret at the default scrypt cost, and private-key JWT), against signing the
 * access token alone with `jose` (the least an endpoint must do); verification cost per SCIM
 * request, as `GET /Users` through `handle()` with an access token (verified, cached, and uncached)
 * against the same request with a static `bearerToken()`. Sequential awaits; time is the process's CPU
 * time (all its threads: scrypt runs on libuv's pool), as in the other parts (BENCH_CLOCK=wall for the wall clock).
 */
import { createMemoryStore, createScimServer, userResourceType, bearerToken, type ScimRequest } from '../packages/core/src/index.js';
import { createClient, createMemoryClientStore, createSigningKeys, createTokenEndpoint, createTokenVerifier, JWT_BEARER_ASSERTION, oauthAuthentication, scopePolicy } from '../packages/oauth/src/index.js';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { machine, measure, now, round, table, writeResult, type Measure } from './lib/harness.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const MS = Number(process.env.OAUTH_BENCH_MS ?? 1000);
const issuer = 'https://scim.example.com';
const audience = `${issuer}/scim/v2`;

/**
 * Operations per second of each async contender, sequentially for about `ms` per run, the
 * contenders interleaved (one run of each in turn, RUNS times) so none gets a quieter machine.
 */
async function rates(contenders: Record<string, () => Promise<unknown>>, ms = MS): Promise<Record<string, Measure>> {
  const names = Object.keys(contenders);
  const runs: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (const name of names) for (let i = 0; i < 3; i++) await (contenders[name] as () => Promise<unknown>)();
  for (let run = 0; run < RUNS; run++) {
    for (const name of names) {
      const operation = contenders[name] as () => Promise<unknown>;
      let count = 0;
      const started = now();
      while (now() - started < ms) {
        await operation();
        count++;
      }
      (runs[name] as number[]).push((count * 1000) / (now() - started));
    }
  }
  return Object.fromEntries(names.map((name) => [name, measure(runs[name] as number[])]));
}

const clients = createMemoryClientStore();
const keys = createSigningKeys();
const endpoint = createTokenEndpoint({ issuer, audience, clients, keys });
const { secret, client } = await createClient(clients, { clientId: 'entra', tenant: 'acme' });
const pair = await generateKeyPair('ES256');
await createClient(clients, { clientId: 'jwt', tenant: 'acme', secret: false, jwks: { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k', alg: 'ES256' }] } });
const form = (params: Record<string, string>): ScimRequest => ({ method: 'POST', path: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params).toString() });
const bySecret = form({ grant_type: 'client_credentials', client_id: 'entra', client_secret: secret as string });
const check = async (request: ScimRequest) => {
  const response = await endpoint.handle(request);
  if (response.status !== 200) throw new Error(`token endpoint answered ${response.status}: ${response.body}`);
};
const current = await keys.current();

const issuance = await rates({
  'jose SignJWT alone (baseline)': (() => new SignJWT({ client_id: 'entra', scope: 'scim' }).setProtectedHeader({ alg: 'ES256', kid: current.kid }).setIssuer(issuer).setAudience(audience).setExpirationTime('10m').sign(current.privateKey)),
  'token endpoint, private_key_jwt': async () => {
    const assertion = await new SignJWT({ jti: globalThis.crypto.randomUUID() }).setProtectedHeader({ alg: 'ES256', kid: 'k' }).setIssuer('jwt').setSubject('jwt').setAudience(issuer).setExpirationTime('1m').sign(pair.privateKey);
    await check(form({ grant_type: 'client_credentials', client_assertion_type: JWT_BEARER_ASSERTION, client_assertion: assertion }));
  },
  'token endpoint, client secret (scrypt N=2^14)': () => check(bySecret),
});

// Verification per SCIM request: GET /Users (empty store) through handle().
const accessToken = (await endpoint.issue(client, ['scim'])).accessToken;
const base = { resourceTypes: [userResourceType], store: createMemoryStore(), logger: { log: () => undefined } };
const staticServer = createScimServer({ ...base, ...bearerToken({ tokens: [{ token: 'static-token-0123456789', tenant: 'acme' }] }) });
const oauthServer = (cacheSize: number) => createScimServer({ ...base, ...oauthAuthentication({ verifier: createTokenVerifier({ issuer, audience, keys, clients, cacheSize }) }), ...scopePolicy() });
const [cached, uncached] = [oauthServer(10_000), oauthServer(0)];
const get = (token: string): ScimRequest => ({ method: 'GET', path: '/Users', headers: { authorization: `Bearer ${token}` } });
const ok = (server: ReturnType<typeof createScimServer>, token: string) => async () => {
  const response = await server.handle(get(token));
  if (response.status !== 200) throw new Error(`GET /Users answered ${response.status}`);
};
const verification = await rates({
  'static bearerToken() (baseline)': ok(staticServer, 'static-token-0123456789'),
  'access token, verifier cache on (default)': ok(cached, accessToken),
  'access token, verifier cache off': ok(uncached, accessToken),
});

const baseIssue = (issuance['jose SignJWT alone (baseline)'] as Measure).median;
table(
  'Token issuance (per CPU second, sequential)',
  Object.entries(issuance).map(([name, m]) => ({ contender: name, 'per s': round(m.median), spread: round(m.spread), '÷ SignJWT': round(m.median / baseIssue) })),
);
const baseRate = (verification['static bearerToken() (baseline)'] as Measure).median;
const baseUs = 1e6 / baseRate;
table(
  'GET /Users through handle() (CPU µs per request)',
  Object.entries(verification).map(([name, m]) => ({ contender: name, 'µs': round(1e6 / m.median), spread: round(m.spread), 'µs over static': round(1e6 / m.median - baseUs), '÷ static rate': round(m.median / baseRate) })),
);
writeResult('oauth', { machine: machine(), runs: RUNS, msPerRun: MS, issuance, verification });
