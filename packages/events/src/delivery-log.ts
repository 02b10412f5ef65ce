import type { EventOutbox, ScimEvent } from '@scimkit/core';
import type { Deliver, EventDispatcher } from './event-dispatcher.js';

/** One attempt at delivering an event. */
export interface DeliveryAttempt {
  /** When the attempt started (ISO 8601). */
  readonly at: string;
  readonly durationMs: number;
  readonly ok: boolean;
  /** The receiver's HTTP status, when it answered (webhooks). */
  readonly status?: number;
  /** Why it failed (absent when `ok`). */
  readonly error?: string;
  /** Made by a redeliver action rather than by the dispatcher. */
  readonly redelivery?: boolean;
}

/** Where a delivery stands. */
export type DeliveryState = 'delivered' | 'failing' | 'dead';

/** An event and its attempts, as `DeliveryLog` keeps them. */
export interface DeliveryRecord {
  readonly eventId: string;
  readonly type: string;
  /** `''` for the default tenant. */
  readonly tenant: string;
  readonly resourceType: string;
  readonly resourceId: string;
  /** When the event happened (ISO 8601). */
  readonly time: string;
  /** `delivered` (the last attempt succeeded), `failing` (it failed; retried by the dispatcher) or `dead` (dead-lettered). */
  readonly state: DeliveryState;
  /** The attempts, oldest first; the newest `maxAttemptsKept` when there were more. */
  readonly attempts: readonly DeliveryAttempt[];
  /** How many attempts were made in all (this instance). */
  readonly attemptCount: number;
}

/** A dead letter of the consumer (kept by the store's outbox, across restarts). */
export interface DeadLetterView {
  readonly eventId: string;
  readonly type: string;
  readonly tenant: string;
  readonly resourceType: string;
  readonly resourceId: string;
  readonly time: string;
  /** When it was dead-lettered (ISO 8601). */
  readonly at: string;
  readonly attempts: number;
  readonly error: string;
}

/** What a redeliver action did. */
export interface RedeliveryOutcome {
  readonly ok: boolean;
  /** One sentence for a person. */
  readonly message: string;
}

export interface DeliveryLogOptions {
  /** Most events kept (the newest); default 1,000. */
  readonly maxEvents?: number;
  /** Most attempts kept per event (the newest); default 20. */
  readonly maxAttemptsKept?: number;
}

/** What `createDeliveryLog().view()` needs to list dead letters and redeliver. */
export interface DeliveryViewOptions {
  readonly outbox: EventOutbox;
  /** The dispatcher's consumer name. */
  readonly consumer: string;
  /** The dispatcher, to redeliver dead letters (they leave the dead letters when delivered). */
  readonly dispatcher: EventDispatcher;
}

/**
 * The read and redeliver side of one consumer's deliveries, per tenant, newest first (what the
 * console's Webhooks page shows: `createConsole({ deliveries })`).
 */
export interface DeliveryView {
  deliveries(tenant: string, options?: { readonly state?: DeliveryState; readonly limit?: number }): Promise<readonly DeliveryRecord[]>;
  delivery(tenant: string, eventId: string): Promise<DeliveryRecord | undefined>;
  deadLetters(tenant: string, limit?: number): Promise<readonly DeadLetterView[]>;
  /** Deliver the event again now (a dead letter through the dispatcher, any other from the log). */
  redeliver(tenant: string, eventId: string): Promise<RedeliveryOutcome>;
}

/**
 * A record of delivery attempts, in memory and bounded (docs/concepts/console.md, "Webhook deliveries"):
 * `track(deliver)` wraps the dispatcher's `Deliver`, `fetch()` wraps the webhooks' `fetch` so each
 * attempt has the receiver's status code, and `view()` lists deliveries per tenant with the
 * outbox's dead letters and redelivers.
 *
 * ```ts
 * const deliveries = createDeliveryLog();
 * const dispatcher = createEventDispatcher({ outbox, consumer: 'webhooks',
 *   deliver: deliveries.track(webhookDelivery({ endpoint, fetch: deliveries.fetch() })) });
 * createConsole({ ..., deliveries: deliveries.view({ outbox, consumer: 'webhooks', dispatcher }) });
 * ```
 */
export interface DeliveryLog {
  /** `deliver`, recording each call as an attempt. */
  track(deliver: Deliver): Deliver;
  /** `fetch` (default `globalThis.fetch`) noting the status each webhook (by its `webhook-id`) was answered. */
  fetch(base?: typeof fetch): typeof fetch;
  view(options: DeliveryViewOptions): DeliveryView;
}

interface Entry {
  readonly event: ScimEvent;
  readonly attempts: DeliveryAttempt[];
  count: number;
}

export function createDeliveryLog(options: DeliveryLogOptions = {}): DeliveryLog {
  const maxEvents = Math.max(1, options.maxEvents ?? 1000);
  const maxAttempts = Math.max(1, options.maxAttemptsKept ?? 20);
  const entries = new Map<string, Entry>();
  /** Status codes seen by `fetch()` for a webhook-id, taken by the attempt that made the call. */
  const statuses = new Map<string, number>();
  /** Events being delivered by a redeliver action. */
  const redelivering = new Set<string>();
  let deliverTracked: Deliver | undefined;

  const entryOf = (event: ScimEvent): Entry => {
    let entry = entries.get(event.id);
    if (entry === undefined) {
      entry = { event, attempts: [], count: 0 };
      if (entries.size >= maxEvents) entries.delete(entries.keys().next().value as string);
    } else entries.delete(event.id);
    entries.set(event.id, entry); // newest last
    return entry;
  };

  const note = (event: ScimEvent, started: number, error: unknown): void => {
    try {
      const entry = entryOf(event);
      const status = statuses.get(event.id);
      statuses.delete(event.id);
      const attempt: { -readonly [K in keyof DeliveryAttempt]: DeliveryAttempt[K] } = { at: new Date(started).toISOString(), durationMs: Date.now() - started, ok: error === undefined };
      const code = status ?? statusIn(error);
      if (code !== undefined) attempt.status = code;
      if (error !== undefined) attempt.error = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      if (redelivering.has(event.id)) attempt.redelivery = true;
      entry.attempts.push(attempt);
      if (entry.attempts.length > maxAttempts) entry.attempts.splice(0, entry.attempts.length - maxAttempts);
      entry.count++;
    } catch {
      // Recording never changes a delivery.
    }
  };

  const log: DeliveryLog = {
    track(deliver) {
      const tracked: Deliver = async (event) => {
        const started = Date.now();
        try {
          await deliver(event);
        } catch (error) {
          note(event, started, error ?? new Error('delivery failed'));
          throw error;
        }
        note(event, started, undefined);
      };
      deliverTracked = tracked;
      return tracked;
    },
    fetch(base = globalThis.fetch) {
      return async (input, init) => {
        const response = await base(input, init);
        const id = headerOf(init?.headers, 'webhook-id');
        if (id !== undefined) {
          if (statuses.size >= maxEvents) statuses.clear();
          statuses.set(id, response.status);
        }
        return response;
      };
    },
    view({ outbox, consumer, dispatcher }) {
      const dead = async (): Promise<Map<string, DeadLetterView>> => {
        const letters = await outbox.deadLetters(consumer, 10_000);
        return new Map(letters.map((letter) => [letter.event.id, { ...summaryOf(letter.event), at: letter.at, attempts: letter.attempts, error: letter.error }]));
      };
      const deliveryOf = (entry: Entry, deadIds: ReadonlySet<string>): DeliveryRecord => {
        const last = entry.attempts[entry.attempts.length - 1];
        const state: DeliveryState = last?.ok === true ? 'delivered' : deadIds.has(entry.event.id) ? 'dead' : 'failing';
        return { ...summaryOf(entry.event), state, attempts: [...entry.attempts], attemptCount: entry.count };
      };
      return {
        async deliveries(tenant, query = {}) {
          const limit = Math.max(1, Math.min(query.limit ?? 100, 1000));
          const deadIds = new Set((await dead()).keys());
          const out: DeliveryRecord[] = [];
          for (const entry of [...entries.values()].reverse()) {
            if ((entry.event.tenant ?? '') !== tenant) continue;
            const delivery = deliveryOf(entry, deadIds);
            if (query.state !== undefined && delivery.state !== query.state) continue;
            out.push(delivery);
            if (out.length === limit) break;
          }
          return out;
        },
        async delivery(tenant, eventId) {
          const entry = entries.get(eventId);
          if (entry === undefined || (entry.event.tenant ?? '') !== tenant) return undefined;
          return deliveryOf(entry, new Set((await dead()).keys()));
        },
        async deadLetters(tenant, limit = 100) {
          return [...(await dead()).values()].filter((letter) => letter.tenant === tenant).reverse().slice(0, Math.max(1, limit));
        },
        async redeliver(tenant, eventId) {
          const letters = await dead();
          const letter = letters.get(eventId);
          const entry = entries.get(eventId);
          if ((letter === undefined || letter.tenant !== tenant) && (entry === undefined || (entry.event.tenant ?? '') !== tenant)) {
            return { ok: false, message: `No delivery of event ${eventId} is known for this tenant.` };
          }
          redelivering.add(eventId);
          try {
            if (letter !== undefined) {
              const count = await dispatcher.redeliver([eventId]);
              return count === 1 ? { ok: true, message: `Event ${eventId} was delivered and left the dead letters.` } : { ok: false, message: `Event ${eventId} could not be delivered again; it stays a dead letter.` };
            }
            const deliver = deliverTracked;
            if (deliver === undefined || entry === undefined) return { ok: false, message: 'Redelivery needs the tracked deliver function (track()).' };
            try {
              await deliver(entry.event);
              return { ok: true, message: `Event ${eventId} was delivered again.` };
            } catch (error) {
              return { ok: false, message: `Event ${eventId} could not be delivered again: ${error instanceof Error ? error.message : String(error)}` };
            }
          } finally {
            redelivering.delete(eventId);
          }
        },
      };
    },
  };
  return log;
}

function summaryOf(event: ScimEvent): { eventId: string; type: string; tenant: string; resourceType: string; resourceId: string; time: string } {
  return { eventId: event.id, type: event.type, tenant: event.tenant ?? '', resourceType: event.resourceType, resourceId: event.resourceId, time: event.time };
}

/** The status a `webhookDelivery` failure names (`<url> answered 503`), when no `fetch()` noted it. */
function statusIn(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = / answered (\d{3})$/.exec(error.message);
  return match === null ? undefined : Number(match[1]);
}

function headerOf(headers: RequestInit['headers'], name: string): string | undefined {
  if (headers === undefined || headers === null) return undefined;
  return new Headers(headers).get(name) ?? undefined;
}
