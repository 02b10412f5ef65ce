import { createBodyCollector, DEFAULT_BODY_TIMEOUT_MS, refusedBody, type RequestBodyRead } from '@scimkit/core';

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
    return refusedBody('tooLarge', maxBytes);
  }
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    if (timeoutMs > 0) timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const collected = createBodyCollector(maxBytes);
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timedOut]);
      if (next === 'timeout') {
        reader.cancel().catch(() => undefined);
        return refusedBody('timeout', maxBytes);
      }
      if (next.done) return { kind: 'body', body: collected.body() };
      if (!collected.add(next.value)) {
        reader.cancel().catch(() => undefined);
        return refusedBody('tooLarge', maxBytes);
      }
    }
  } catch {
    return { kind: 'aborted' };
  } finally {
    clearTimeout(timer);
  }
}

