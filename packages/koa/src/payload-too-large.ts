import { SCIM_MEDIA_TYPE, URN, type ScimResponse } from '@scimkit/core';

/** The 413 SCIM error for a body over `limit` bytes; the connection closes so the rest is never read. */
export function payloadTooLarge(limit: number): ScimResponse {
  return {
    status: 413,
    headers: { 'Content-Type': SCIM_MEDIA_TYPE, Connection: 'close' },
    body: JSON.stringify({ schemas: [URN.error], status: '413', detail: `The request body exceeds ${limit} bytes.` }),
  };
}
