import { httpError } from '../errors/scim-error.js';
import type { ScimResponse } from '../server/request/scim-request.js';
import type { RequestBodyRead } from './read-request-body.js';
import { scimErrorResponse } from './scim-error-response.js';

/** Gathers a request body's chunks within a byte limit: the part every adapter's body reader shares. */
export interface BodyCollector {
  /** Keep `chunk`; false once the body has grown past the limit (the chunk is not kept). */
  add(chunk: Uint8Array): boolean;
  /** The body read so far, as one array; `undefined` when it is empty. */
  body(): Uint8Array | undefined;
}

/** A collector for a body of at most `maxBytes` bytes. */
export function createBodyCollector(maxBytes: number): BodyCollector {
  const chunks: Uint8Array[] = [];
  let size = 0;
  return {
    add(chunk) {
      size += chunk.byteLength;
      if (size > maxBytes) return false;
      chunks.push(chunk);
      return true;
    },
    body: () => (size === 0 ? undefined : concat(chunks, size)),
  };
}

/**
 * A body refused before it was read whole, answered with `Connection: close` so the unread rest goes
 * with the socket: too large (413, RFC 9110 §15.5.14) or too slow (408, §15.5.9).
 */
export function refusedBody(reason: 'tooLarge' | 'timeout', maxBytes: number): RequestBodyRead {
  return reason === 'tooLarge'
    ? { kind: 'refused', response: closing(413, `The request body exceeds ${maxBytes} bytes.`) }
    : { kind: 'refused', response: closing(408, 'The request body did not arrive in time') };
}

function closing(status: number, detail: string): ScimResponse {
  return scimErrorResponse(httpError(status, detail), { Connection: 'close' });
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const body = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}
