import { err, ok, type Result } from '../../errors/result.js';
import { httpError } from '../../errors/scim-error.js';
import type { LogScope } from '../observe/log-scope.js';
import { isTenantName } from '../tenancy/tenancy-options.js';
import { reportError } from '../observe/notify-change.js';
import type { ScimFailure } from '../response/scim-failure.js';
import type { AuthenticationResult, AuthenticationScheme } from '../config/scim-server-config.js';
import type { ScimRequest } from './scim-request.js';
import type { ServerContext } from '../config/server-context.js';

/** Who is calling, as far as the server knows. */
export interface Caller {
  readonly principal?: unknown;
  /** The tenant `authenticate` bound the caller to, if any. */
  readonly tenant?: string;
  /** The scopes of the caller's credential, if it has any (see `authorize`). */
  readonly scopes?: readonly string[];
}

/**
 * Stage 1, authenticate (RFC 7644 §2): run the configured hook, before routing, so a refusal
 * tells nothing about which paths and methods exist. A refusal is a 401 with a
 * `WWW-Authenticate` challenge (RFC 9110 §11.6.1), or a 403; both carry a SCIM error body.
 * Without a hook every caller is let in.
 */
export async function authenticate(context: ServerContext, request: ScimRequest, scope: LogScope = {}): Promise<Result<Caller, ScimFailure>> {
  const hook = context.config.authenticate;
  if (hook === undefined) return ok({});
  const outcome: unknown = await hook(request);
  // Fail closed: only a literal `ok: true` lets a caller in; a hook returning anything but an
  // AuthenticationResult is a programmer error, reported and answered as a generic 500.
  if (typeof outcome !== 'object' || outcome === null || typeof (outcome as { ok?: unknown }).ok !== 'boolean') {
    reportError(context, 'the authenticate hook returned something that is not an AuthenticationResult', outcome, scope);
    return err(httpError(500, 'Internal server error'));
  }
  const result = outcome as AuthenticationResult;
  if (result.ok) {
    if (result.tenant !== undefined && !isTenantName(result.tenant)) {
      reportError(context, 'the authenticate hook returned a tenant that is not 1-256 characters without control characters', result.tenant, scope);
      return err(httpError(500, 'Internal server error'));
    }
    const scopes = scopesOf(result.scopes);
    return ok({
      ...(result.principal === undefined ? {} : { principal: result.principal }),
      ...(result.tenant === undefined ? {} : { tenant: result.tenant }),
      ...(scopes === undefined ? {} : { scopes }),
    });
  }
  const detail = typeof result.detail === 'string' ? result.detail : undefined;
  if (result.status === 403) return err(httpError(403, detail ?? 'Access denied'));
  const challenge = headerValue(result.challenge) ?? defaultChallenge(context.config.authenticationSchemes ?? []);
  return err({ ...httpError(401, detail ?? 'Authentication required'), headers: { 'WWW-Authenticate': challenge } });
}

/** Scopes as a frozen list of strings; anything else given counts as none (fail closed under `authorize`). */
function scopesOf(scopes: unknown): readonly string[] | undefined {
  if (scopes === undefined) return undefined;
  return Object.freeze(Array.isArray(scopes) ? scopes.filter((scope): scope is string => typeof scope === 'string') : []);
}

/** A string fit for an HTTP field value (RFC 9110 §5.5: visible ASCII, space, tab), else undefined. */
function headerValue(value: unknown): string | undefined {
  return typeof value === 'string' && /^[\x20-\x7e\t]+$/.test(value) ? value : undefined;
}

function defaultChallenge(schemes: readonly AuthenticationScheme[]): string {
  const scheme = schemes.find((candidate) => candidate.primary === true) ?? schemes[0];
  const name = scheme?.type === 'httpbasic' ? 'Basic' : scheme?.type === 'httpdigest' ? 'Digest' : 'Bearer';
  return `${name} realm="SCIM"`;
}
