import type { ScimRequest, ScimResponse } from '@scimkit/core';

/** A stand-in for `createScimServer()`: records what the adapter passes and answers `reply`. */
export function recordingHandler(reply: ScimResponse = { status: 200, headers: { 'Content-Type': 'application/scim+json' }, body: '{}' }) {
  const requests: ScimRequest[] = [];
  return {
    requests,
    reply,
    handle(request: ScimRequest): Promise<ScimResponse> {
      requests.push(request);
      return Promise.resolve(this.reply);
    },
  };
}
