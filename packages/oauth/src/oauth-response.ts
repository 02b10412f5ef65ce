import type { ScimResponse } from '@scimkit/core';

/** RFC 6749 §5.2 error codes (and `temporarily_unavailable` for a failing client store). */
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope' | 'temporarily_unavailable';

/** RFC 6749 §5.1: token responses are never cached. */
const NO_STORE = { 'Content-Type': 'application/json;charset=UTF-8', 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

/** A JSON answer that must not be cached. */
export function jsonAnswer(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): ScimResponse {
  return { status, headers: { ...NO_STORE, ...headers }, body: JSON.stringify(body) };
}

/** RFC 6749 §5.2: `{ error, error_description }`, 400 unless said otherwise. */
export function oauthError(code: OAuthErrorCode, description: string, status = 400, headers: Readonly<Record<string, string>> = {}): ScimResponse {
  // RFC 6749 §5.2: error_description is %x20-21 / %x23-5B / %x5D-7E.
  return jsonAnswer(status, { error: code, error_description: description.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, ' ') }, headers);
}
