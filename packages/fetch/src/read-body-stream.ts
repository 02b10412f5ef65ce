import { DEFAULT_BODY_TIMEOUT_MS, httpError, scimErrorResponse, type RequestBodyRead, type ScimResponse } from '@scimkit/core';

export interface BodyStreamLimits {
  /** Largest body accepted, in bytes: a larger one, declared (`Content-Length`) or sent, is a 413. */
  readonly maxBytes: number;
  /** Longest wait for the whole body, in ms; 0 waits as long as the request lives. */
  readonly timeoutMs?: number | undefined;
}

/**
 * Reads a Web request body chunk by chunk within `maxBytes` (RFC 9110 §15.5.14: a declared oversize
 * body is refused before any of it is read; a body that grows past the limit is cancelled at the
 * chunk that crosses it) and `timeoutMs` (§15.5.9, 408). Never rejects; a stream that errors (the
 * client went away) is `aborted`. Uses only the Streams API, so it runs wherever `fetch` does.
 */
export async function readBodyStream(request: Request, limits: BodyStreamLimits): Promise<RequestBodyRead> {
  const { maxBytes, timeoutMs = DEFAULT_BODY_TIMEOUT_MS } = limits;
  const body = request.body;
  if (body === null) return { kind: 'body', body: undefined };
  if (Number(request.headers.get('content-length')) > maxBytes) {
    body.cancel().catch(() => undefined);
    return tooLarge(maxBytes);
  }
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    if (timeoutMs > 0) timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timedOut]);
      if (next === 'timeout') {
        reader.cancel().catch(() => undefined);
        return { kind: 'refused', response: closing(408, 'The request body did not arrive in time') };
      }
      if (next.done) return { kind: 'body', body: size === 0 ? undefined : concat(chunks, size) };
      size += next.value.byteLength;
      if (size > maxBytes) {
        reader.cancel().catch(() => undefined);
        return tooLarge(maxBytes);
      }
      chunks.push(next.value);
    }
  } catch {
    return { kind: 'aborted' };
  } finally {
    clearTimeout(timer);
  }
}

function tooLarge(maxBytes: number): RequestBodyRead {
  return { kind: 'refused', response: closing(413, `The request body exceeds ${maxBytes} bytes.`) };
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
