import type { EventOutbox, ScimEvent } from '@scimkit/core';
import { createEventDispatcher, type EventDispatcher, type EventDispatcherOptions } from './event-dispatcher.js';

/** One event handed to a subscriber: `ack()` once handled; `nack(error)` to have it retried (then dead-lettered). */
export interface EventDelivery {
  readonly event: ScimEvent;
  ack(): void;
  nack(error?: unknown): void;
}

/** An async iterable of deliveries; `close()` stops it (also on `break` out of a `for await`). */
export interface EventSubscription extends AsyncIterableIterator<EventDelivery> {
  close(): Promise<void>;
  readonly dispatcher: EventDispatcher;
}

/**
 * Subscribe in process to a consumer's events, with the outbox's guarantees: in order per
 * resource, at least once, the position kept in the store. The next event of a resource comes only
 * after the previous one was acknowledged:
 *
 * ```ts
 * for await (const { event, ack } of subscribe(store.outbox!, 'sessions')) { await revoke(event); ack(); }
 * ```
 */
export function subscribe(outbox: EventOutbox, consumer: string, options: Omit<EventDispatcherOptions, 'outbox' | 'consumer' | 'deliver'> = {}): EventSubscription {
  const ready: EventDelivery[] = [];
  const waiting: ((result: IteratorResult<EventDelivery>) => void)[] = [];
  let closed = false;
  const dispatcher = createEventDispatcher({
    ...options,
    outbox,
    consumer,
    deliver: (event) =>
      new Promise<void>((resolve, reject) => {
        if (closed) return reject(new Error('subscription closed'));
        let settled = false;
        const delivery: EventDelivery = {
          event,
          ack: () => void (settled ? undefined : ((settled = true), resolve())),
          nack: (error) => void (settled ? undefined : ((settled = true), reject(error instanceof Error ? error : new Error(String(error ?? 'not acknowledged'))))),
        };
        const taker = waiting.shift();
        if (taker !== undefined) taker({ value: delivery, done: false });
        else ready.push(delivery);
      }),
  });
  dispatcher.start();

  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    for (const delivery of ready.splice(0)) delivery.nack(new Error('subscription closed'));
    for (const taker of waiting.splice(0)) taker({ value: undefined, done: true });
    await dispatcher.stop();
  };

  return {
    dispatcher,
    close,
    next: () => {
      const delivery = ready.shift();
      if (delivery !== undefined) return Promise.resolve({ value: delivery, done: false });
      if (closed) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => waiting.push(resolve));
    },
    return: async () => {
      await close();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
