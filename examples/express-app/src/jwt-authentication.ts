import { bearerToken, type BearerTokenAuthentication } from '@scimkit/core';
import { errors, jwtVerify, type CryptoKey, type JWTVerifyGetKey, type KeyObject } from 'jose';

export interface JwtAuthenticationOptions {
  /**
   * Where the signing keys come from: `createRemoteJWKSet(new URL('https://idp.example.com/.well-known/jwks.json'))`
   * for an identity provider's JWKS, or one public key (a `CryptoKey`) or shared HMAC secret.
   */
  readonly key: JWTVerifyGetKey | CryptoKey | KeyObject | Uint8Array;
  /** The `iss` every token must carry. */
  readonly issuer: string;
  /** The `aud` every token must carry: this SCIM service. */
  readonly audience: string;
  /** The claim naming the tenant (Entra ID: `tid`). Default `tid`. */
  readonly tenantClaim?: string;
}

/**
 * `authenticate` for OAuth access tokens that are JWTs: `jose` checks the signature, `exp`/`nbf`,
 * the issuer and the audience; the tenant comes from a claim. A token that fails any check is a 401
 * with `error="invalid_token"`; a failure to reach the key set is a 500 (it is not the client's fault).
 */
export function jwtAuthentication(options: JwtAuthenticationOptions): BearerTokenAuthentication {
  const tenantClaim = options.tenantClaim ?? 'tid';
  return bearerToken({
    verify: async (token) => {
      try {
        const { payload } = await jwtVerify(token, options.key as JWTVerifyGetKey, { issuer: options.issuer, audience: options.audience });
        const tenant = payload[tenantClaim];
        if (typeof tenant !== 'string' || tenant === '') return undefined;
        return { principal: { subject: payload.sub, client: payload['azp'] ?? payload['client_id'] }, tenant };
      } catch (error) {
        // An invalid, expired or forged token: refuse it. Anything else (the JWKS endpoint down) is a real failure.
        if (error instanceof errors.JOSEError && !(error instanceof errors.JWKSTimeout) && !(error instanceof errors.JWKSInvalid)) return undefined;
        throw error;
      }
    },
    scheme: { name: 'OAuth Bearer Token (JWT)', description: 'An OAuth 2.0 access token (a signed JWT) in the Authorization header' },
  });
}
