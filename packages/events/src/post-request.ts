import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** What a receiver answered. */
export interface PostAnswer {
  readonly status: number;
  /** The body, when asked for (an error body to report); empty otherwise. */
  readonly body: string;
}

/** POSTs a body and reads the answer; rejects on a network failure or after `timeoutMs` in all. */
export type Post = (url: string, headers: Readonly<Record<string, string>>, body: string, timeoutMs: number, readBody?: boolean) => Promise<PostAnswer>;

/**
 * A `Post` over Node's `http`/`https` with keep-alive agents of its own (up to `maxSockets`
 * connections per receiver), several times cheaper per request than `fetch` (undici's Request,
 * Response and web streams for each one), which is what a delivery loop spends its CPU on. Idle
 * connections do not keep the process alive. `destroy()` closes them.
 */
export function nodePost(maxSockets = 64): Post & { destroy(): void } {
  const agents = { http: new HttpAgent({ keepAlive: true, maxSockets }), https: new HttpsAgent({ keepAlive: true, maxSockets }) };
  const post: Post = (url, headers, body, timeoutMs, readBody = false) =>
    new Promise<PostAnswer>((resolve, reject) => {
      const target = new URL(url);
      const secure = target.protocol === 'https:';
      const payload = Buffer.from(body, 'utf8');
      const request = (secure ? httpsRequest : httpRequest)(
        target,
        { method: 'POST', agent: secure ? agents.https : agents.http, headers: { ...headers, 'content-length': String(payload.length) } },
        (response: IncomingMessage) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => void (readBody && chunks.length < 64 ? chunks.push(chunk) : undefined));
          response.on('end', () => {
            clearTimeout(timer);
            resolve({ status: response.statusCode ?? 0, body: readBody ? Buffer.concat(chunks).toString('utf8').slice(0, 65_536) : '' });
          });
          response.on('error', fail);
        },
      );
      const timer = setTimeout(() => request.destroy(new Error(`${target.origin} did not answer within ${timeoutMs} ms`)), timeoutMs);
      function fail(error: Error): void {
        clearTimeout(timer);
        reject(error);
      }
      request.on('error', fail);
      request.end(payload);
    });
  return Object.assign(post, {
    destroy() {
      agents.http.destroy();
      agents.https.destroy();
    },
  });
}

/** A `Post` over a `fetch` function (the application's own, or a test's). */
export function fetchPost(send: typeof fetch): Post {
  return async (url, headers, body, timeoutMs, readBody = false) => {
    const response = await send(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
    // Read the body even when not asked for it, so the connection is kept alive for the next event.
    const text = await response.text().catch(() => '');
    return { status: response.status, body: readBody ? text : '' };
  };
}
