import { createHash, timingSafeEqual } from 'node:crypto';
import type { AuthenticationResult, ScimRequest } from '@scimkit/core';

/**
 * An `authenticate` hook accepting `Authorization: Bearer <token>`. The comparison runs in constant
 * time over digests, so response timing tells nothing about the token.
 */
export function bearerAuthentication(token: string): (request: ScimRequest) => AuthenticationResult {
  const expected = digest(token);
  return (request) => {
    const header = request.headers?.['authorization'];
    const match = typeof header === 'string' ? /^Bearer +(\S+)\s*$/i.exec(header) : null;
    if (match?.[1] !== undefined && timingSafeEqual(digest(match[1]), expected)) return { ok: true, principal: 'identity-provider' };
    return { ok: false, detail: 'A valid bearer token is required.' };
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
