import {
  bearerToken,
  createMemoryStore,
  createScimServer,
  groupResourceType,
  URN,
  userResourceType,
  type BearerTokenEntry,
  type ScimLogger,
  type ScimResource,
  type ScimServer,
  type ScimServerLimits,
  type ScimStore,
} from '@scimkit/core';

/** The two read-only groups of examples/seed-service/README.md, found only through `POST /.search`. */
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
  /**
   * Serve several tenants: each tenant's token (`Authorization: Bearer <token>`) picks the tenant,
   * whose users no other tenant sees; every tenant at the same URL. With `bearerToken` too, that
   * token acts for the default tenant.
   */
  readonly tenants?: readonly { readonly tenant: string; readonly token: string }[];
  /** Absolute mount-point URL, when the adapter cannot tell it (see `ScimServerConfig.baseUrl`). */
  readonly baseUrl?: string;
  readonly logger?: ScimLogger;
  /** Override limits (tests use small ones); the service's own are those of examples/seed-service/README.md. */
  readonly limits?: ScimServerLimits;
  /**
   * Where resources live; default a fresh in-memory store holding {@link GROUP_FIXTURES}. A store
   * given here must hold the fixtures already (see `storeFromEnv`).
   */
  readonly store?: ScimStore;
}

/**
 * The service of examples/seed-service/README.md: users (with the Enterprise User extension) in the in-memory
 * store with every endpoint, and a Group type without endpoints whose two read-only fixtures only
 * the server-root search returns (refused as tooMany above 1,000 matches).
 */
export function createSeedService(options: SeedServiceOptions = {}): ScimServer {
  const tokens: BearerTokenEntry[] = [
    ...(options.bearerToken === undefined ? [] : [{ token: options.bearerToken, principal: 'bearer' }]),
    ...(options.tenants ?? []).map(({ tenant, token }) => ({ token, tenant, principal: tenant })),
  ];
  return createScimServer({
    resourceTypes: [userResourceType, { ...groupResourceType, operations: [], rootSearch: true }],
    store: options.store ?? createMemoryStore({ initial: { Group: GROUP_FIXTURES } }),
    limits: { rootSearchMaxResults: 1000, ...options.limits },
    // examples/seed-service/README.md: an unknown id is a 404 with `detail: ""`.
    notFoundDetail: 'empty',
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    // RFC 7643 §5: GET /ServiceProviderConfig stays readable without a token, so clients can
    // discover how to authenticate (bearerToken's default).
    ...(tokens.length === 0 ? {} : bearerToken({ tokens })),
  });
}
