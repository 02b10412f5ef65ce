import type { ScimEvent } from '@scimkit/core';
import { Webhook } from 'standardwebhooks';
import { PermanentDeliveryError } from './delivery-error.js';
import { fetchPost, nodePost } from './post-request.js';

/** Where one tenant's events go, and the secret they are signed with (`whsec_…`, base64 after the prefix). */
export interface WebhookEndpoint {
  readonly url: string;
  readonly secret: string;
}

export interface WebhookOptions {
  /** One endpoint for every event, or per event (per tenant): undefined skips the event. */
  readonly endpoint: WebhookEndpoint | ((event: ScimEvent) => WebhookEndpoint | undefined);
  /** A receiver that has not answered after this long failed (retried). Default 10,000 ms. */
  readonly timeoutMs?: number;
  /** Send through this `fetch` instead. Default: Node's `http`/`https` with keep-alive connections (post-request.ts). */
  readonly fetch?: typeof fetch;
}

/** The body a receiver gets (Standard Webhooks): `type` is the event name, `data` the event. */
export interface WebhookPayload {
  readonly type: string;
  readonly timestamp: string;
  readonly data: ScimEvent;
}

/**
 * A `Deliver` that POSTs each event as a Standard Webhooks message, signed with the
 * `standardwebhooks` library (`webhook-id` is the event id, stable across retries, so receivers
 * deduplicate on it). 2xx delivered; 408, 429 and 5xx, a timeout or a network failure are retried;
 * any other answer is a permanent failure (dead letter).
 */
export function webhookDelivery(options: WebhookOptions): (event: ScimEvent) => Promise<void> {
  const post = options.fetch === undefined ? nodePost() : fetchPost(options.fetch);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const signers = new Map<string, Webhook>();
  const signer = (secret: string): Webhook => {
    let found = signers.get(secret);
    if (found === undefined) signers.set(secret, (found = new Webhook(secret)));
    return found;
  };
  return async (event) => {
    const endpoint = typeof options.endpoint === 'function' ? options.endpoint(event) : options.endpoint;
    if (endpoint === undefined) return;
    const payload: WebhookPayload = { type: event.type, timestamp: event.time, data: event };
    const body = JSON.stringify(payload);
    const now = new Date();
    const headers = {
      'content-type': 'application/json',
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signer(endpoint.secret).sign(event.id, now, body),
    };
    const { status } = await post(endpoint.url, headers, body, timeoutMs);
    if (status >= 200 && status < 300) return;
    const message = `${endpoint.url} answered ${status}`;
    if (status === 408 || status === 429 || status >= 500) throw new Error(message);
    throw new PermanentDeliveryError(message);
  };
}
