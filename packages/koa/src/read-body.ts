import type { IncomingMessage } from 'node:http';

/** What reading a request stream gave: its bytes, or why there are none. */
export type BodyRead =
  | { readonly kind: 'body'; readonly body: unknown }
  | { readonly kind: 'tooLarge' }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'aborted' };

/**
 * Reads an unread request stream into memory, refusing more than `limit` bytes (a declared
 * `Content-Length` over the limit is refused before reading). An empty body reads as `undefined`.
 * Never rejects and never waits forever: a client that disconnects mid-body (or before it was
 * read) gives `aborted`, one that has not finished `timeoutMs` after the start gives `timeout`
 * (0 waits as long as Node lets the request live).
 */
export function readBody(stream: IncomingMessage, limit: number, timeoutMs = 0): Promise<BodyRead> {
  if (Number(stream.headers['content-length']) > limit) return Promise.resolve({ kind: 'tooLarge' });
  if (stream.destroyed) return Promise.resolve({ kind: 'aborted' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyRead): void => {
      clearTimeout(timer);
      stream.off('data', onData).off('end', onEnd).off('error', onAbort).off('close', onAbort);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else {
        stream.pause();
        finish({ kind: 'tooLarge' });
      }
    };
    const onEnd = (): void => finish({ kind: 'body', body: size === 0 ? undefined : Buffer.concat(chunks, size) });
    const onAbort = (): void => finish({ kind: 'aborted' });
    const onTimeout = (): void => {
      stream.pause();
      finish({ kind: 'timeout' });
    };
    const timer = timeoutMs > 0 ? setTimeout(onTimeout, timeoutMs) : undefined;
    timer?.unref();
    stream.on('data', onData).on('end', onEnd).on('error', onAbort).on('close', onAbort);
  });
}
