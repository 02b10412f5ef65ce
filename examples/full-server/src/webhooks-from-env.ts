import type { ScimStore } from '@scimkit/core';
import { createDeliveryLog, createEventDispatcher, webhookDelivery, type DeliveryView, type EventDispatcher } from '@scimkit/events';

/** The webhook settings `SCIM_WEBHOOK_URL` / `SCIM_WEBHOOK_SECRET` name, checked. */
export type WebhookSettings = { readonly ok: true; readonly url: string; readonly secret: string } | { readonly ok: false; readonly error: string };

export function webhookSettings(env: NodeJS.ProcessEnv = process.env): WebhookSettings | undefined {
  const url = env['SCIM_WEBHOOK_URL'];
  if (url === undefined || url === '') return undefined;
  const secret = env['SCIM_WEBHOOK_SECRET'] ?? '';
  if (!/^https?:\/\//i.test(url)) return { ok: false, error: `SCIM_WEBHOOK_URL must be an http(s) URL, got '${url}'` };
  if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret) || Buffer.from(secret.slice('whsec_'.length), 'base64').length < 24) {
    return { ok: false, error: 'SCIM_WEBHOOK_SECRET must be a Standard Webhooks secret: whsec_ followed by at least 24 random bytes in base64 (e.g. `echo whsec_$(openssl rand -base64 32)`)' };
  }
  return { ok: true, url, secret };
}

/**
 * Deliver every event of `store`'s outbox to the webhook, signed per Standard Webhooks, with
 * retries; the consumer's position is kept in the store, so with PGlite or PostgreSQL an event
 * committed before a crash is delivered after the restart (docs/concepts/events.md). Every attempt
 * is recorded (in memory, bounded) for the console's Webhooks page: `deliveries`.
 */
export function startWebhooks(store: ScimStore, settings: { url: string; secret: string }, owner?: string): { dispatcher: EventDispatcher; deliveries: DeliveryView } {
  if (store.outbox === undefined) throw new TypeError('the store keeps no events outbox');
  const log = createDeliveryLog();
  const consumer = 'webhook';
  const dispatcher = createEventDispatcher({
    outbox: store.outbox,
    consumer,
    // The same owner as before a restart takes its partitions back at once (instanceOwner).
    ...(owner === undefined ? {} : { owner }),
    deliver: log.track(webhookDelivery({ endpoint: { url: settings.url, secret: settings.secret }, fetch: log.fetch() })),
    pollIntervalMs: 100,
    // An instance that dies leaves its partitions to the others (or to its restart) after this long.
    leaseMs: 10_000,
    backoff: { baseMs: 250, maxMs: 30_000 },
  });
  dispatcher.start();
  return { dispatcher, deliveries: log.view({ outbox: store.outbox, consumer, dispatcher }) };
}

/**
 * The name this instance holds outbox partitions under: `SCIM_INSTANCE_ID` when set (an instance
 * restarted under the same name takes its partitions back without waiting for their leases to
 * expire: give each instance its own), `exclusive-store` on an exclusive store (only one process can open a
 * PGlite directory, so whatever an earlier run left leased is this process's), else a random name.
 */
export function instanceOwner(exclusive: boolean, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const named = env['SCIM_INSTANCE_ID'];
  if (named !== undefined && named !== '') return named;
  return exclusive ? 'exclusive-store' : undefined;
}
