import { err, ok, type Result } from '../errors/result.js';
import { httpError } from '../errors/scim-error.js';
import type { ScimFailure } from './scim-failure.js';
import type { AuthenticationScheme } from './scim-server-config.js';
import type { ScimRequest } from './scim-request.js';
import type { ServerContext } from './server-context.js';

/** Who is calling, as far as the server knows. */
export interface Caller {
  readonly principal?: unknown;
}

/**
 * Stage 2, authenticate (RFC 7644 §2): run the configured hook. A refusal is a 401 with a
 * `WWW-Authenticate` challenge (RFC 9110 §11.6.1), or a 403; both carry a SCIM error body.
 * Without a hook every caller is let in.
 */
export async function authenticate(context: ServerContext, request: ScimRequest): Promise<Result<Caller, ScimFailure>> {
  const hook = context.config.authenticate;
  if (hook === undefined) return ok({});
  const outcome = await hook(request);
  if (outcome.ok) return ok(outcome.principal === undefined ? {} : { principal: outcome.principal });
  if (outcome.status === 403) return err(httpError(403, outcome.detail ?? 'Access denied'));
  const challenge = outcome.challenge ?? defaultChallenge(context.config.authenticationSchemes ?? []);
  return err({ ...httpError(401, outcome.detail ?? 'Authentication required'), headers: { 'WWW-Authenticate': challenge } });
}

function defaultChallenge(schemes: readonly AuthenticationScheme[]): string {
  const scheme = schemes.find((candidate) => candidate.primary === true) ?? schemes[0];
  const name = scheme?.type === 'httpbasic' ? 'Basic' : scheme?.type === 'httpdigest' ? 'Digest' : 'Bearer';
  return `${name} realm="SCIM"`;
}
