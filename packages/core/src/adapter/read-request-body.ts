import type { ScimResponse } from '../server/request/scim-request.js';
import { createBodyCollector, refusedBody } from './body-collector.js';

/** The part of a Node readable request (`http.IncomingMessage`) that {@link readRequestBody} uses. */
export interface RequestBodyStream {
  readonly headers?: Readonly<Record<string, string | readonly string[] | undefined>>;
  readonly destroyed?: boolean;
  /** 1 for HTTP/1.x (where a request without Content-Length or Transfer-Encoding has no body), 2 for HTTP/2. */
  readonly httpVersionMajor?: number;
  on(event: 'data' | 'end' | 'error' | 'close', listener: (chunk: Uint8Array) => void): unknown;
  off(event: 'data' | 'end' | 'error' | 'close', listener: (chunk: Uint8Array) => void): unknown;
  pause(): unknown;
}

export interface RequestBodyOptions {
  /** Largest body accepted, in bytes: a larger one, declared (`Content-Length`) or sent, is a 413. */
  readonly maxBytes: number;
  /** Longest wait for the whole body, in ms: a client still sending after it gets a 408. Default 30 000; 0 waits as long as the request lives. */
  readonly timeoutMs?: number | undefined;
}

/**
 * What reading a request body gave: its bytes (`undefined` when empty); a response that refuses it
 * (413 or 408, with `Connection: close` so the unread rest goes with the socket); or nothing to
 * answer, because the client went away.
 */
export type RequestBodyRead =
  | { readonly kind: 'body'; readonly body: Uint8Array | undefined }
  | { readonly kind: 'refused'; readonly response: ScimResponse }
  | { readonly kind: 'aborted' };

export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

const EMPTY_BODY: RequestBodyRead = Object.freeze({ kind: 'body', body: undefined });

function hasNoBody(headers: RequestBodyStream['headers']): boolean {
  if (headers === undefined) return false;
  const length = headers['content-length'];
  return (length === undefined || length === '0') && headers['transfer-encoding'] === undefined;
}

/**
 * Reads an unread request stream into memory for `handle()`, within `maxBytes` (RFC 9110 §15.5.14:
 * a declared oversize body is refused before any of it is read) and `timeoutMs` (§15.5.9). Never
 * rejects and never waits forever; on a refusal the stream is paused, not drained.
 */
export function readRequestBody(stream: RequestBodyStream, options: RequestBodyOptions): Promise<RequestBodyRead> {
  const { maxBytes, timeoutMs = DEFAULT_BODY_TIMEOUT_MS } = options;
  if (Number(stream.headers?.['content-length']) > maxBytes) return Promise.resolve(refusedBody('tooLarge', maxBytes));
  if (stream.destroyed === true) return Promise.resolve({ kind: 'aborted' });
  // RFC 9112 §6.3: an HTTP/1.1 request with neither Content-Length nor Transfer-Encoding has no
  // body (every GET and DELETE a client sends): nothing to wait for, no listeners, no timer. (An
  // HTTP/2 request may have a body without either, so it is read.)
  if (stream.httpVersionMajor === 1 && hasNoBody(stream.headers)) return Promise.resolve(EMPTY_BODY);
  return new Promise((resolve) => {
    const collected = createBodyCollector(maxBytes);
    const finish = (result: RequestBodyRead): void => {
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onAbort);
      stream.off('close', onAbort);
      if (result.kind === 'refused') stream.pause();
      resolve(result);
    };
    const onData = (chunk: Uint8Array): void => {
      if (!collected.add(chunk)) finish(refusedBody('tooLarge', maxBytes));
    };
    const onEnd = (): void => finish({ kind: 'body', body: collected.body() });
    const onAbort = (): void => finish({ kind: 'aborted' });
    const onTimeout = (): void => finish(refusedBody('timeout', maxBytes));
    const timer = timeoutMs > 0 ? setTimeout(onTimeout, timeoutMs) : undefined;
    (timer as { unref?: () => void } | undefined)?.unref?.();
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onAbort);
    stream.on('close', onAbort);
  });
}

