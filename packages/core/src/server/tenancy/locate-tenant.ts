import { err, ok, type Result } from '../../errors/result.js';
import { httpError } from '../../errors/scim-error.js';
import type { ScimFailure } from '../response/scim-failure.js';
import type { ScimRequest } from '../request/scim-request.js';
import type { ServerContext } from '../config/server-context.js';
import { isTenantName } from './tenancy-options.js';
import { matchTenantPath } from './tenant-path.js';

/** A request as the pipeline serves it once the URL's tenant is known. */
export interface LocatedRequest {
  /** The request with `path` relative to the tenant's mount point and `tenant` set from the URL. */
  readonly request: ScimRequest;
  /** The path relative to the tenant's mount point (the request's own without `tenancy.path`). */
  readonly path: string;
  /** The tenant the URL names, if any. */
  readonly tenant?: string;
  /** The URL prefix naming the tenant (`/acme/scim/v2`), appended to the base URL; '' without `tenancy.path`. */
  readonly prefix: string;
}

/**
 * The tenant the URL names: with `tenancy.path`, the template's `{tenant}` segment (a path that
 * does not match is a 404), else `request.tenant` as the adapter set it.
 */
export function locateTenant(context: ServerContext, request: ScimRequest, path: string): Result<LocatedRequest, ScimFailure> {
  if (context.tenantPath === undefined) {
    const tenant: unknown = request?.tenant;
    if (tenant === undefined) return ok({ request, path, prefix: '' });
    if (!isTenantName(tenant)) return err(httpError(404, 'No such tenant'));
    return ok({ request, path, tenant, prefix: '' });
  }
  const match = matchTenantPath(context.tenantPath, path);
  if (match === undefined) return err(httpError(404, 'No SCIM endpoint here: the path names no tenant'));
  return ok({ request: { ...request, path: match.path, tenant: match.tenant }, path: match.path, tenant: match.tenant, prefix: match.prefix });
}

/**
 * The tenant a request acts for: the one `authenticate` bound the caller to, else the URL's. When
 * both are known they must agree: a credential of one tenant used on another's URL is a 403.
 */
export function actingTenant(fromUrl: string | undefined, fromCaller: string | undefined): Result<string | undefined, ScimFailure> {
  if (fromUrl !== undefined && fromCaller !== undefined && fromUrl !== fromCaller) {
    return err(httpError(403, 'These credentials are not valid for this tenant'));
  }
  return ok(fromCaller ?? fromUrl);
}
