import type { ScimEvent } from '@scimkit/core';
import { PermanentDeliveryError } from './delivery-error.js';
import { fetchPost, nodePost } from './post-request.js';
import type { SetIssuer } from './set-issuer.js';

export interface SetPushOptions {
  /** The receiver's push endpoint. */
  readonly url: string;
  readonly issuer: SetIssuer;
  /** An `Authorization` header value the receiver requires, if any. */
  readonly authorization?: string;
  /** Default 10,000 ms. */
  readonly timeoutMs?: number;
  /** Send through this `fetch` instead. Default: Node's `http`/`https` with keep-alive connections. */
  readonly fetch?: typeof fetch;
}

/**
 * A `Deliver` that pushes each event as a SET (RFC 8935 §2): POST `application/secevent+jwt`,
 * delivered on 202 (any 2xx is taken). A 400 with an RFC 8935 §2.3 error body is a permanent
 * failure (the receiver refused the SET: dead letter); 408, 429, 5xx, timeouts and network
 * failures are retried.
 */
export function setPushDelivery(options: SetPushOptions): (event: ScimEvent) => Promise<void> {
  const post = options.fetch === undefined ? nodePost() : fetchPost(options.fetch);
  return async (event) => {
    const token = await options.issuer.sign(event);
    const headers = { 'content-type': 'application/secevent+jwt', accept: 'application/json', ...(options.authorization === undefined ? {} : { authorization: options.authorization }) };
    const { status, body: text } = await post(options.url, headers, token, options.timeoutMs ?? 10_000, true);
    if (status >= 200 && status < 300) return;
    if (status === 408 || status === 429 || status >= 500) throw new Error(`${options.url} answered ${status}`);
    let detail = '';
    try {
      const body = JSON.parse(text) as { err?: unknown; description?: unknown };
      detail = `: ${String(body.err)}${body.description === undefined ? '' : ` (${String(body.description)})`}`;
    } catch {
      // not an RFC 8935 error body
    }
    throw new PermanentDeliveryError(`${options.url} refused the SET with ${status}${detail}`);
  };
}
