import { createHash, timingSafeEqual } from 'node:crypto';
import {
  createMemoryStore,
  createScimServer,
  groupResourceType,
  URN,
  userResourceType,
  type AuthenticationResult,
  type ScimLogger,
  type ScimRequest,
  type ScimResource,
  type ScimServer,
  type ScimServerLimits,
  type ScimStore,
} from '@scimkit/core';

/** The two read-only groups of service-spec.md, found only through `POST /.search`. */
export const GROUP_FIXTURES: readonly ScimResource[] = [
  {
    schemas: [URN.group],
    id: '6c5bb468-14b2-4183-baf2-06d523e03bd3',
    displayName: 'Administrators',
    meta: { resourceType: 'Group', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' },
  },
  {
    schemas: [URN.group],
    id: '0a5c8e46-9b1e-4d0c-8a5f-3c2b1d7e9f10',
    displayName: 'Everyone',
    meta: { resourceType: 'Group', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' },
  },
];

export interface SeedServiceOptions {
  /**
   * When set, every request needs `Authorization: Bearer <token>` except a read of
   * `/ServiceProviderConfig` (RFC 7643 §5: schemes discoverable without authentication); otherwise
   * the service is open.
   */
  readonly bearerToken?: string;
  /** Absolute mount-point URL, when the adapter cannot tell it (see `ScimServerConfig.baseUrl`). */
  readonly baseUrl?: string;
  readonly logger?: ScimLogger;
  /** Override limits (tests use small ones); the service's own are those of service-spec.md. */
  readonly limits?: ScimServerLimits;
  /**
   * Where resources live; default a fresh in-memory store holding {@link GROUP_FIXTURES}. A store
   * given here must hold the fixtures already (see `storeFromEnv`).
   */
  readonly store?: ScimStore;
}

/**
 * The service of service-spec.md: users (with the Enterprise User extension) in the in-memory
 * store with every endpoint, and a Group type without endpoints whose two read-only fixtures only
 * the server-root search returns (refused as tooMany above 1,000 matches).
 */
export function createSeedService(options: SeedServiceOptions = {}): ScimServer {
  const { bearerToken } = options;
  return createScimServer({
    resourceTypes: [userResourceType, { ...groupResourceType, operations: [], rootSearch: true }],
    store: options.store ?? createMemoryStore({ initial: { Group: GROUP_FIXTURES } }),
    limits: { rootSearchMaxResults: 1000, ...options.limits },
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(bearerToken === undefined
      ? {}
      : {
          authenticate: bearerAuthentication(bearerToken),
          authenticationSchemes: [
            {
              type: 'oauthbearertoken',
              name: 'OAuth Bearer Token',
              description: 'Authentication with a bearer token in the Authorization header',
              specUri: 'https://www.rfc-editor.org/info/rfc6750',
              primary: true,
            },
          ],
        }),
  });
}

/**
 * The `authenticate` hook of the seed service. The server runs it before routing, so without the
 * token every path answers 401, unknown ones included. RFC 7643 §5: the service provider SHOULD make
 * `authenticationSchemes` publicly accessible without prior authentication, so a client can learn
 * how to authenticate: `/ServiceProviderConfig` alone is open (any method: routing then answers 405
 * for anything but GET and HEAD, which tells nothing the RFC does not).
 */
function bearerAuthentication(token: string): (request: ScimRequest) => AuthenticationResult {
  const expected = digest(token);
  return (request) => (isServiceProviderConfig(request) ? { ok: true } : checkBearer(request.headers, expected));
}

function isServiceProviderConfig(request: ScimRequest): boolean {
  return typeof request.path === 'string' && /^\/ServiceProviderConfigs?\/?$/i.test(request.path);
}

/** Compares SHA-256 digests in constant time: response timing tells nothing about the token. */
function checkBearer(headers: Readonly<Record<string, string | readonly string[] | undefined>> | undefined, expected: Buffer): AuthenticationResult {
  const header = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  const value = typeof header === 'string' ? header : header?.[0];
  const match = value === undefined ? null : /^Bearer\s+(.+)$/i.exec(value.trim());
  if (match?.[1] !== undefined && timingSafeEqual(digest(match[1]), expected)) return { ok: true, principal: 'bearer' };
  return { ok: false, detail: 'A valid bearer token is required' };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
