import { createClient, createMemoryClientStore, createSigningKeys, createTokenEndpoint, createTokenVerifier, type ClientStore, type TokenEndpoint, type TokenVerifier } from '@scimkit/oauth';

/** One client of `SCIM_CLIENTS`. */
export interface ClientCredential {
  readonly clientId: string;
  readonly secret: string;
  readonly tenant?: string;
}

const CLIENT_ID = /^[A-Za-z0-9\-._~]{1,128}$/;
const SECRET = /^[\x21-\x2b\x2d-\x39\x3b-\x7e]{16,512}$/;
const TENANT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/**
 * Parse `SCIM_CLIENTS=<client id>:<secret>[:<tenant>],…`. A secret is at least 16 visible ASCII
 * characters without `,` or `:`. Returns the clients, or an error naming the first bad entry (never
 * echoing a secret).
 */
export function parseClients(text: string): { ok: true; clients: ClientCredential[] } | { ok: false; error: string } {
  const clients: ClientCredential[] = [];
  for (const entry of text.split(',').map((part) => part.trim())) {
    const [clientId = '', secret = '', tenant, ...rest] = entry.split(':');
    if (!CLIENT_ID.test(clientId)) return { ok: false, error: `"${clientId.slice(0, 40)}" is not a client id (letters, digits, -._~)` };
    if (!SECRET.test(secret) || rest.length > 0) return { ok: false, error: `the secret of "${clientId}" must be 16-512 visible characters without , or :` };
    if (tenant !== undefined && !TENANT.test(tenant)) return { ok: false, error: `the tenant of "${clientId}" is not a tenant name (letters, digits, . _ -)` };
    if (clients.some((client) => client.clientId === clientId)) return { ok: false, error: `client "${clientId}" is given twice` };
    clients.push({ clientId, secret, ...(tenant === undefined ? {} : { tenant }) });
  }
  return { ok: true, clients };
}

/** The OAuth side of the full server: the token endpoint and the verifier of its tokens. */
export interface FullServerOAuth {
  readonly tokens: TokenEndpoint;
  readonly verifier: TokenVerifier;
  readonly clients: ClientStore;
  readonly tokenEndpointUrl: string;
}

/**
 * A token endpoint at `{issuer}/oauth/token` for `clients` (each allowed `scim` and `scim:read`;
 * a token carries `scim` unless the client asks for `scim:read`), its JWKS at
 * `/.well-known/jwks.json`, and a verifier for the SCIM endpoint. Tokens last 10 minutes; the
 * signing key lives in memory (a restart makes clients fetch a new token).
 */
export async function createFullServerOAuth(options: { clients: readonly ClientCredential[]; issuer: string }): Promise<FullServerOAuth> {
  const issuer = options.issuer.replace(/\/+$/, '');
  const audience = `${issuer}/scim/v2`;
  const clients = createMemoryClientStore();
  for (const client of options.clients) {
    await createClient(clients, { clientId: client.clientId, secret: client.secret, scopes: ['scim', 'scim:read'], ...(client.tenant === undefined ? {} : { tenant: client.tenant }) });
  }
  const keys = createSigningKeys();
  const tokenEndpointUrl = `${issuer}/oauth/token`;
  return {
    tokens: createTokenEndpoint({ issuer, audience, clients, keys, tokenEndpointUrl }),
    verifier: createTokenVerifier({ issuer, audience, keys, clients }),
    clients,
    tokenEndpointUrl,
  };
}
