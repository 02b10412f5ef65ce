import type { ScimServerConfig } from '../config/scim-server-config.js';

/**
 * What may differ per tenant in one server: schemas and schema extensions, the resource types
 * (with their `schemaExtensions`), the compatibility profile and the unknown-attribute policy.
 * Everything else (store, hooks, logger, limits, authentication) is the server's.
 */
export type TenantConfig = Pick<ScimServerConfig, 'resourceTypes' | 'schemas' | 'compatibility' | 'unknownAttributes'>;

/**
 * Multi-tenancy options. A request's tenant comes from `authenticate` (`{ ok: true, tenant }`), or
 * from the URL with `path`; every store call and hook of the request receives it.
 */
export interface TenancyOptions {
  /**
   * Where the URL names the tenant: a path template relative to the adapter's mount point whose
   * one `{tenant}` segment is the tenant, e.g. `'/{tenant}/scim/v2'` with the adapter mounted at
   * `/tenants` serves `/tenants/acme/scim/v2/Users` for tenant `acme` (and `meta.location` keeps the
   * prefix). Other segments match case-insensitively; a path that does not match is a 404. When
   * `authenticate` also returns a tenant, the two must be equal, else 403. When it returns none,
   * the URL's tenant is taken as is: `authenticate` must check that the caller may act for
   * `request.tenant`.
   */
  readonly path?: string;
  /**
   * The configuration of one tenant, merged over the server's (`compatibility` option by option).
   * Called the first time a tenant is seen, then cached (see `cacheSize`); `undefined` means the
   * server's configuration. A throw, a rejection or an invalid configuration is a 500 for that
   * request, reported to the logger, and is not cached.
   */
  readonly configure?: (tenant: string) => TenantConfig | undefined | Promise<TenantConfig | undefined>;
  /** Most tenant configurations kept resolved; the least recently used is dropped. Default 1000. */
  readonly cacheSize?: number;
}

/** Longest tenant name accepted from `authenticate` or the URL. */
export const MAX_TENANT_LENGTH = 256;

/** A tenant name is a non-empty string of at most 256 characters without control characters. */
export function isTenantName(value: unknown): value is string {
  // eslint-disable-next-line no-control-regex
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_TENANT_LENGTH && !/[\u0000-\u001f\u007f]/.test(value);
}
