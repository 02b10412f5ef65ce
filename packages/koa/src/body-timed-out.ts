import { SCIM_MEDIA_TYPE, URN, type ScimResponse } from '@scimkit/core';

/** The 408 SCIM error (RFC 9110 §15.5.9) for a body that did not arrive in time; the connection closes. */
export function bodyTimedOut(): ScimResponse {
  return {
    status: 408,
    headers: { 'Content-Type': SCIM_MEDIA_TYPE, Connection: 'close' },
    body: JSON.stringify({ schemas: [URN.error], status: '408', detail: 'The request body did not arrive in time' }),
  };
}
