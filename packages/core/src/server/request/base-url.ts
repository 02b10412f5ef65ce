import { isValidHost } from './valid-host.js';
import { requestHeader } from './request-header.js';
import type { ScimRequest } from './scim-request.js';
import type { ServerContext } from '../config/server-context.js';

/**
 * The absolute URL of the mount point for `meta.location` and `Location` (RFC 7644 §3.1): the
 * adapter's `request.baseUrl`, else `config.baseUrl`, else `http://{Host}`. No trailing slash.
 */
export function resolveBaseUrl(context: ServerContext, request: ScimRequest): string {
  const host = requestHeader(request, 'host');
  const usableHost = host !== undefined && isValidHost(host);
  const fromRequest = typeof request.baseUrl === 'string' ? request.baseUrl : undefined;
  const base = fromRequest ?? context.config.baseUrl ?? (usableHost ? `http://${host}` : '');
  return base.replace(/\/+$/, '');
}
