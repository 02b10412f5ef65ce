import type { AuthenticationResult, AuthenticationScheme } from '../server/config/scim-server-config.js';
import { requestHeader } from '../server/request/request-header.js';
import type { ScimRequest } from '../server/request/scim-request.js';
import { findToken } from './constant-time.js';

/** Who a bearer token stands for. */
export interface BearerIdentity {
  /** Handed to the hooks (`onChange`, `onRequest`, `onResponse`) as `principal`: who made the change. */
  readonly principal?: unknown;
  /** The tenant the token acts for (see `TenancyOptions`). */
  readonly tenant?: string;
  /** The OAuth scopes the token carries (see `authorize`); absent: none declared (a static token). */
  readonly scopes?: readonly string[];
}

/** One accepted token and who it stands for. */
export interface BearerTokenEntry extends BearerIdentity {
  readonly token: string;
}

export interface BearerTokenOptions {
  /**
   * The accepted tokens, each with the principal and tenant it stands for: one per customer, and
   * during a rotation the old and the new token of a customer side by side. Compared in constant time.
   */
  readonly tokens?: readonly BearerTokenEntry[];
  /**
   * Decide on a token that is not in `tokens` (a JWT, a token looked up in a database): return who it
   * stands for, or undefined to refuse it (401, `error="invalid_token"`). A throw is a 500: catch
   * your library's verification errors and return undefined.
   */
  readonly verify?: (token: string, request: ScimRequest) => BearerIdentity | undefined | Promise<BearerIdentity | undefined>;
  /**
   * Let `GET` and `HEAD /ServiceProviderConfig` through without a token, so clients can discover
   * how to authenticate (RFC 7643 §5: the service provider SHOULD make `authenticationSchemes`
   * publicly accessible). Any other method there still needs the token. A token sent anyway is
   * still checked. Default true.
   */
  readonly publicServiceProviderConfig?: boolean;
  /** Overrides of the advertised scheme (name, description, documentationUri, …). */
  readonly scheme?: Partial<Omit<AuthenticationScheme, 'type'>>;
}

/** Spread into `createScimServer({ ...bearerToken(options) })`: the hook and the scheme it advertises. */
export interface BearerTokenAuthentication {
  readonly authenticate: (request: ScimRequest) => Promise<AuthenticationResult>;
  readonly authenticationSchemes: readonly AuthenticationScheme[];
}

/** RFC 6750 §2.1: `Authorization: Bearer b64token`. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
/** Longest token considered; anything longer is refused before hashing (bounded work). */
const MAX_TOKEN_LENGTH = 16 * 1024;

/**
 * `authenticate` for `Authorization: Bearer <token>` (RFC 6750), with the `oauthbearertoken`
 * scheme to advertise. Each accepted token says who it stands for, principal and tenant; several
 * may be valid at once (rotation). Throws a TypeError for an invalid configuration.
 */
export function bearerToken(options: BearerTokenOptions): BearerTokenAuthentication {
  const entries = checkedEntries(options);
  const { verify } = options;
  if (entries.length === 0 && verify === undefined) throw new TypeError('bearerToken: give tokens, verify, or both');
  if (verify !== undefined && typeof verify !== 'function') throw new TypeError('bearerToken: verify must be a function');
  const tokens = entries.map((entry) => entry.token);
  const publicConfig = options.publicServiceProviderConfig ?? true;

  const identify = async (token: string, request: ScimRequest): Promise<BearerIdentity | undefined> => {
    const index = findToken(tokens, token);
    if (index >= 0) return identityOf(entries[index] as BearerTokenEntry);
    return verify === undefined ? undefined : await verify(token, request);
  };

  return {
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description: 'Authentication with a bearer token in the Authorization header',
        specUri: 'https://www.rfc-editor.org/info/rfc6750',
        primary: true,
        ...options.scheme,
      },
    ],
    authenticate: async (request) => {
      const header = requestHeader(request, 'authorization');
      const open = publicConfig && readsServiceProviderConfig(request);
      // RFC 6750 §3.1: no credentials at all is answered without an error code.
      if (header === undefined) return open ? { ok: true } : { ok: false, detail: 'A bearer token is required' };
      const token = BEARER.exec(header)?.[1];
      const identity = token === undefined || token.length > MAX_TOKEN_LENGTH ? undefined : await identify(token, request);
      if (identity !== undefined) return { ok: true, ...identity };
      if (open) return { ok: true };
      return { ok: false, detail: 'The bearer token is not valid', challenge: 'Bearer realm="SCIM", error="invalid_token"' };
    },
  };
}

function checkedEntries(options: BearerTokenOptions): BearerTokenEntry[] {
  if (options === null || typeof options !== 'object') throw new TypeError('bearerToken: an options object is required');
  const entries = options.tokens ?? [];
  if (!Array.isArray(entries)) throw new TypeError('bearerToken: tokens must be an array of { token, principal?, tenant? }');
  const seen = new Set<string>();
  for (const entry of entries as readonly BearerTokenEntry[]) {
    const token: unknown = entry?.token;
    if (typeof token !== 'string' || !B64TOKEN.test(token) || token.length > MAX_TOKEN_LENGTH) {
      throw new TypeError('bearerToken: every token must be a non-empty RFC 6750 b64token (letters, digits, -._~+/ and trailing =)');
    }
    if (seen.has(token)) throw new TypeError('bearerToken: a token is listed twice');
    seen.add(token);
  }
  return [...entries];
}

function identityOf(entry: BearerTokenEntry): BearerIdentity {
  return {
    ...(entry.principal === undefined ? {} : { principal: entry.principal }),
    ...(entry.tenant === undefined ? {} : { tenant: entry.tenant }),
    ...(entry.scopes === undefined ? {} : { scopes: entry.scopes }),
  };
}

/** `GET`/`HEAD /ServiceProviderConfig` (or the `ServiceProviderConfigs` spelling), relative to the mount point. */
function readsServiceProviderConfig(request: ScimRequest): boolean {
  const method = typeof request.method === 'string' ? request.method.toUpperCase() : '';
  return (method === 'GET' || method === 'HEAD') && typeof request.path === 'string' && /^\/ServiceProviderConfigs?\/?(?:[?#].*)?$/i.test(request.path);
}
