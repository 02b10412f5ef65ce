import { isTenantName } from './tenancy-options.js';

/** A compiled `TenancyOptions.path` template: literal segments (lower-cased) and the tenant's place. */
export interface TenantPath {
  readonly segments: readonly (string | null)[];
}

/** The request's path split at the tenant prefix. */
export interface TenantPathMatch {
  readonly tenant: string;
  /** The matched prefix as received (`/acme/scim/v2`), appended to the base URL. */
  readonly prefix: string;
  /** The rest, relative to the tenant's mount point (`/Users/2819c223`). */
  readonly path: string;
}

/** Compile a template such as `'/{tenant}/scim/v2'`. Throws a TypeError for a malformed one (start-up). */
export function compileTenantPath(template: string): TenantPath {
  if (typeof template !== 'string') throw new TypeError('createScimServer: tenancy.path must be a string such as "/{tenant}"');
  const segments = template.split('/').filter((segment) => segment !== '');
  if (segments.filter((segment) => segment === '{tenant}').length !== 1 || segments.some((segment) => segment !== '{tenant}' && /[{}?#]/.test(segment))) {
    throw new TypeError(`createScimServer: tenancy.path must hold exactly one "{tenant}" segment, got ${JSON.stringify(template)}`);
  }
  return { segments: segments.map((segment) => (segment === '{tenant}' ? null : segment.toLowerCase())) };
}

/** Match a request path against the template; undefined when it does not match (a 404). */
export function matchTenantPath(template: TenantPath, path: string): TenantPathMatch | undefined {
  const pathOnly = path.split(/[?#]/, 1)[0] ?? '';
  const raw = pathOnly.split('/');
  // raw[0] is '' for a path starting with '/'; empty segments (double slashes) are skipped like the router does.
  let at = 0;
  let tenant: string | undefined;
  for (const expected of template.segments) {
    while (at < raw.length && raw[at] === '') at++;
    const segment = raw[at];
    if (segment === undefined) return undefined;
    if (expected === null) {
      tenant = decode(segment);
      if (!isTenantName(tenant)) return undefined;
    } else if (decode(segment)?.toLowerCase() !== expected) {
      return undefined;
    }
    at++;
  }
  if (tenant === undefined) return undefined;
  const prefix = `/${raw.slice(0, at).filter((segment) => segment !== '').join('/')}`;
  const rest = raw.slice(at).join('/');
  return { tenant, prefix, path: `/${rest.replace(/^\/+/, '')}${path.slice(pathOnly.length)}` };
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
