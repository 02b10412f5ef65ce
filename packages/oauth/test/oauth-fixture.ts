import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import type { ScimRequest, ScimResponse } from '@scimkit/core';
import { createClient, createMemoryClientStore, createSigningKeys, createTokenEndpoint, JWT_BEARER_ASSERTION, type OAuthLogRecord } from '../src/index.js';

export const ISSUER = 'https://scim.example.com';
export const AUDIENCE = 'https://scim.example.com/scim/v2';
export const TOKEN_URL = 'https://scim.example.com/oauth/token';
/** Cheap scrypt for tests (the default cost is measured in bench/). */
export const TEST_COST = { N: 1024, r: 8, p: 1 };

/** A token endpoint with a secret client (`entra`, tenant acme) and a private-key JWT client (`okta-jwt`, tenant globex). */
export async function oauthFixture() {
  const clients = createMemoryClientStore();
  const keys = createSigningKeys();
  const records: OAuthLogRecord[] = [];
  const endpoint = createTokenEndpoint({ issuer: ISSUER, audience: AUDIENCE, clients, keys, tokenEndpointUrl: TOKEN_URL, logger: { log: (record) => void records.push(record) } });
  const { secret } = await createClient(clients, { clientId: 'entra', tenant: 'acme', scopes: ['scim', 'scim:read', 'scim:write', 'scim:bulk'], cost: TEST_COST });
  const pair = await generateKeyPair('ES256');
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
  await createClient(clients, { clientId: 'okta-jwt', tenant: 'globex', secret: false, jwks: { keys: [publicJwk] } });
  return { clients, keys, endpoint, records, secret: secret as string, privateKey: pair.privateKey, publicJwk };
}

/** A client assertion (RFC 7523 §3) for `clientId`, with overrides. */
export async function assertion(privateKey: CryptoKey, clientId: string, claims: Record<string, unknown> = {}, options: { alg?: string; kid?: string; exp?: number; aud?: string } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ jti: globalThis.crypto.randomUUID(), ...claims })
    .setProtectedHeader({ alg: options.alg ?? 'ES256', kid: options.kid ?? 'k1' })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(options.aud ?? TOKEN_URL)
    .setIssuedAt(now)
    .setExpirationTime(options.exp ?? now + 60)
    .sign(privateKey);
}

export function form(params: Record<string, string>, headers: Record<string, string> = {}): ScimRequest {
  return { method: 'POST', path: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(params).toString(), baseUrl: 'http://127.0.0.1:1' };
}

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

export function json(response: ScimResponse): Record<string, any> {
  return JSON.parse(response.body ?? '{}');
}

export type { JWK };
export { JWT_BEARER_ASSERTION };
