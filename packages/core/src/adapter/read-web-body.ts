import { createBodyCollector, refusedBody } from './body-collector.js';
import { DEFAULT_BODY_TIMEOUT_MS, type RequestBodyOptions, type RequestBodyRead } from './read-request-body.js';

/** The part of a Web `Request` that {@link readWebBody} uses. */
export interface WebRequestBody {
  readonly body: ReadableStream<Uint8Array> | null;
  readonly headers: { get(name: string): string | null };
}

/**
 * Reads a Web request body chunk by chunk within `maxBytes` (RFC 9110 §15.5.14: a declared oversize
 * body is refused before any of it is read; a body that grows past the limit is cancelled at the
 * chunk that crosses it) and `timeoutMs` (§15.5.9, 408). Never rejects; a stream that errors (the
 * client went away) is `aborted`. Uses only the Streams API, so it runs wherever `fetch` does.
 */
export async function readWebBody(request: WebRequestBody, limits: RequestBodyOptions): Promise<RequestBodyRead> {
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

