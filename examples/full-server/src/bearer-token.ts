import { createHash, timingSafeEqual } from 'node:crypto';
import type { AuthenticationResult, ScimRequest } from '@scimkit/core';

/**
 * An `authenticate` hook that accepts `Authorization: Bearer <token>` (RFC 6750 §2.1). The
 * comparison takes the same time whatever the guess: both sides are hashed to 32 bytes and compared
 * with `timingSafeEqual`, so neither the token's content nor its length leaks through timing.
 */
export function bearerToken(token: string): (request: ScimRequest) => AuthenticationResult {
  if (token === '') throw new TypeError('bearerToken: the token must not be empty');
  const expected = digest(token);
  return (request) => {
    const presented = credentials(request);
    if (presented !== undefined && timingSafeEqual(digest(presented), expected)) return { ok: true, principal: 'bearer' };
    return { ok: false, detail: 'A valid bearer token is required' };
  };
}

function credentials(request: ScimRequest): string | undefined {
  const header = Object.entries(request.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  const value = typeof header === 'string' ? header : header?.[0];
  return value === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(value.trim())?.[1];
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
