import { bearerToken, type AuthenticationScheme, type BearerTokenAuthentication, type BearerTokenEntry, type ScimRequest } from '@scimkit/core';
import type { TokenVerifier } from './token-verifier.js';

export interface OAuthAuthenticationOptions {
  /** Verifies access tokens (`createTokenVerifier()`). */
  readonly verifier: TokenVerifier;
  /** Static bearer tokens accepted beside the access tokens, exactly as `bearerToken({ tokens })` (no scopes: full access unless the scope policy requires scopes). */
  readonly tokens?: readonly BearerTokenEntry[];
  /** The public URL of the token endpoint, advertised as the `oauth2` scheme's `documentationUri` unless `documentationUri` is given. */
  readonly tokenEndpointUrl?: string;
  readonly documentationUri?: string;
  /** As in `bearerToken()`: `GET /ServiceProviderConfig` without a token. Default true. */
  readonly publicServiceProviderConfig?: boolean;
}

/**
 * `authenticate` for OAuth access tokens (RFC 6750 bearer) and, beside them, static bearer tokens;
 * spread into `createScimServer()` with the schemes `/ServiceProviderConfig` advertises: `oauth2`
 * (RFC 6749, the token endpoint) and, with `tokens`, `oauthbearertoken`. A refused access token is
 * a 401 whose challenge says why (`error="invalid_token", error_description="The access token expired"`).
 */
export function oauthAuthentication(options: OAuthAuthenticationOptions): BearerTokenAuthentication {
  const reasons = new WeakMap<object, string>();
  const inner = bearerToken({
    tokens: options.tokens ?? [],
    publicServiceProviderConfig: options.publicServiceProviderConfig ?? true,
    verify: async (token, request) => {
      const verified = await options.verifier.verify(token);
      if (verified.ok) return { principal: verified.token.principal, scopes: verified.token.scopes, ...(verified.token.tenant === undefined ? {} : { tenant: verified.token.tenant }) };
      reasons.set(request, verified.reason);
      return undefined;
    },
  });
  const documentationUri = options.documentationUri ?? options.tokenEndpointUrl;
  const schemes: AuthenticationScheme[] = [
    {
      type: 'oauth2',
      name: 'OAuth 2.0 client credentials',
      description: 'Bearer access tokens (RFC 6750) from the token endpoint: client credentials grant (RFC 6749 §4.4) with a client secret or a private-key JWT (RFC 7523)',
      specUri: 'https://www.rfc-editor.org/info/rfc6749',
      ...(documentationUri === undefined ? {} : { documentationUri }),
      primary: true,
    },
    ...(options.tokens === undefined || options.tokens.length === 0
      ? []
      : [{ type: 'oauthbearertoken' as const, name: 'OAuth Bearer Token', description: 'A static bearer token in the Authorization header', specUri: 'https://www.rfc-editor.org/info/rfc6750' }]),
  ];
  return {
    authenticationSchemes: schemes,
    authenticate: async (request: ScimRequest) => {
      const result = await inner.authenticate(request);
      const reason = result.ok ? undefined : reasons.get(request);
      if (result.ok || reason === undefined) return result;
      return { ok: false, detail: reason, challenge: `Bearer realm="SCIM", error="invalid_token", error_description="${reason.replace(/["\\]/g, "'")}"` };
    },
  };
}
