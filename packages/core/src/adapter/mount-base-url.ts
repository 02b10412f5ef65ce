import { err, ok, type Result } from '../errors/result.js';
import { httpError } from '../errors/scim-error.js';
import { isValidHost } from '../server/request/valid-host.js';

/** The host a request without a `Host` header (HTTP/1.0) or with an empty one is served as. */
export const FALLBACK_HOST = 'localhost';

/**
 * The absolute URL of the mount point a request reached, for `meta.location`:
 * `{scheme}://{host}{mountPath}`. The raw `Host` header is checked before anything else reads it:
 * an invalid one is a 400 (RFC 9112 §3.2), never echoed into `Location`; a missing or empty one
 * is {@link FALLBACK_HOST}, so every adapter keeps the mount path either way.
 */
export function mountBaseUrl(scheme: string, host: string | undefined, mountPath: string): Result<string> {
  if (host === undefined || host === '') return ok(`${scheme}://${FALLBACK_HOST}${mountPath}`);
  if (!isValidHost(host)) return err(httpError(400, 'The Host header is not a valid host[:port]'));
  return ok(`${scheme}://${host}${mountPath}`);
}
