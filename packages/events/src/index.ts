/**
 * @scimkit/events: delivers the events a scimkit store keeps in its transactional outbox
 * (docs/concepts/events.md). A dispatcher shared by instances (at least once, in order per
 * resource, dead letters, retention), webhooks signed per Standard Webhooks, an in-process
 * subscription, and RFC 9967 Security Event Tokens pushed (RFC 8935) or polled (RFC 8936).
 *
 * ```ts
 * const dispatcher = createEventDispatcher({
 *   outbox: store.outbox!, consumer: 'webhooks',
 *   deliver: webhookDelivery({ endpoint: { url, secret } }),
 * });
 * dispatcher.start();
 * ```
 *
 * @module @scimkit/events
 */
export { createEventDispatcher } from './event-dispatcher.js';
export type { Deliver, DispatcherMetrics, EventDispatcher, EventDispatcherOptions, RetentionOptions } from './event-dispatcher.js';
export { retryDelay } from './backoff.js';
export type { BackoffOptions } from './backoff.js';
export { PermanentDeliveryError } from './delivery-error.js';
export { webhookDelivery } from './webhook-delivery.js';
export type { WebhookEndpoint, WebhookOptions, WebhookPayload } from './webhook-delivery.js';
export { subscribe } from './subscribe.js';
export type { EventDelivery, EventSubscription } from './subscribe.js';
export { createSetIssuer, SCIM_EVENT_URIS } from './set-issuer.js';
export type { SetIssuer, SetIssuerOptions } from './set-issuer.js';
export { setPushDelivery } from './set-push.js';
export type { SetPushOptions } from './set-push.js';
export { createSetPollEndpoint } from './set-poll-endpoint.js';
export type { SetPollEndpoint, SetPollOptions, SetPollResponse } from './set-poll-endpoint.js';
export { createDeliveryLog } from './delivery-log.js';
export type { DeadLetterView, DeliveryAttempt, DeliveryLog, DeliveryLogOptions, DeliveryRecord, DeliveryState, DeliveryView, DeliveryViewOptions, RedeliveryOutcome } from './delivery-log.js';
