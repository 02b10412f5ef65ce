import type { EventOutbox, OutboxLease, OutboxRecord, PruneResult, ScimEvent, ScimLogger } from '@scimkit/core';
import { retryDelay, type BackoffOptions } from './backoff.js';
import { PermanentDeliveryError } from './delivery-error.js';

/** Delivers one event; resolves when the receiver took it, rejects to retry (or with a PermanentDeliveryError to dead-letter at once). */
export type Deliver = (event: ScimEvent) => Promise<void>;

export interface RetentionOptions {
  /** Keep events every consumer has passed this long, in milliseconds. Default 24 hours. */
  readonly keepMs?: number;
  /**
   * The most events the outbox keeps, delivered or not. Past it the oldest are dropped (an `error`
   * record and `metrics.dropped`): a receiver that is down does not grow the outbox without bound.
   * Default 1,000,000.
   */
  readonly maxEvents?: number;
  /** How often this dispatcher prunes, in milliseconds. Default 60,000. */
  readonly intervalMs?: number;
}

export interface EventDispatcherOptions {
  /** The store's outbox (`store.outbox`). */
  readonly outbox: EventOutbox;
  /** The consumer's name: its positions and dead letters are kept under it, shared by its instances. */
  readonly consumer: string;
  readonly deliver: Deliver;
  /** This instance's name in leases. Default a random UUID. */
  readonly owner?: string;
  /** Records read at a time per partition. Default 100. */
  readonly batchSize?: number;
  /** Wait between polls when there is nothing to deliver, in milliseconds. Default 200. */
  readonly pollIntervalMs?: number;
  /** How long a partition lease lasts without renewal, in milliseconds. Default 30,000. */
  readonly leaseMs?: number;
  /** Attempts per event before it is dead-lettered. Default 8. */
  readonly maxAttempts?: number;
  readonly backoff?: BackoffOptions;
  /** Pruning of the outbox by this dispatcher; `false` leaves it to another. */
  readonly retention?: RetentionOptions | false;
  /** Where failures, dead letters and drops are reported. Default `warn`/`error` to `console.error`. */
  readonly logger?: ScimLogger;
}

/** Counters since start. */
export interface DispatcherMetrics {
  delivered: number;
  /** Failed attempts (each retried or dead-lettered). */
  failures: number;
  deadLettered: number;
  redelivered: number;
  /** Events dropped from the outbox at its bound, undelivered. */
  dropped: number;
  /** Partitions this instance holds now. */
  partitions: number;
}

export interface EventDispatcher {
  /** Start polling and delivering (idempotent). */
  start(): void;
  /** Stop: finish the event in hand, release the leases. Resolves when done. */
  stop(): Promise<void>;
  /** One pass over the partitions this instance can lease, until each is drained. Returns the events handled. */
  runOnce(): Promise<number>;
  /** Deliver dead letters again (all, or those ids); those delivered leave the dead letters. Returns how many. */
  redeliver(eventIds?: readonly string[]): Promise<number>;
  /** Prune now (retention and bound). */
  prune(): Promise<PruneResult>;
  readonly metrics: Readonly<DispatcherMetrics>;
}

const CONSOLE: ScimLogger = { log: (record) => (record.level === 'error' || record.level === 'warn' ? console.error(`[scimkit events] ${record.message}`, record.error ?? '') : undefined) };

/**
 * Reads a consumer's share of the outbox partitions and delivers each partition's events in order,
 * one at a time (so one resource's events arrive in order), at least once: a position moves only
 * after delivery, so an instance that dies leaves its partitions to another instance, which
 * delivers the unacknowledged events again (receivers deduplicate on the event id). A failed
 * delivery is retried with exponential backoff and jitter, holding its partition, and
 * dead-lettered after `maxAttempts`.
 */
export function createEventDispatcher(options: EventDispatcherOptions): EventDispatcher {
  const { outbox, consumer, deliver } = options;
  const owner = options.owner ?? globalThis.crypto.randomUUID();
  const batchSize = options.batchSize ?? 100;
  const pollIntervalMs = options.pollIntervalMs ?? 200;
  const leaseMs = options.leaseMs ?? 30_000;
  const maxAttempts = options.maxAttempts ?? 8;
  const logger = options.logger ?? CONSOLE;
  const retention = options.retention === false ? undefined : { keepMs: 86_400_000, maxEvents: 1_000_000, intervalMs: 60_000, ...options.retention };
  const metrics: DispatcherMetrics = { delivered: 0, failures: 0, deadLettered: 0, redelivered: 0, dropped: 0, partitions: 0 };
  const active = new Map<number, Promise<number>>();
  let leases: readonly OutboxLease[] = [];
  let running = false;
  let stopping = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let lastPrune = 0;

  const log = (level: 'warn' | 'error', message: string, error?: unknown): void => {
    try {
      logger.log({ level, message, ...(error === undefined ? {} : { error }) });
    } catch {
      // a logger never stops delivery
    }
  };

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  /** Deliver one record with retries; true when delivered, false when dead-lettered; undefined when stopped first. */
  async function attempt(record: OutboxRecord, renew: () => Promise<boolean>): Promise<boolean | undefined> {
    for (let tries = 1; ; tries++) {
      try {
        await deliver(record.event);
        metrics.delivered++;
        return true;
      } catch (error) {
        metrics.failures++;
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof PermanentDeliveryError || tries >= maxAttempts) {
          await outbox.deadLetter(consumer, record.event, tries, message);
          metrics.deadLettered++;
          log('error', `event ${record.event.id} (${record.event.type}) dead-lettered for ${consumer} after ${tries} attempt(s): ${message}`);
          return false;
        }
        log('warn', `delivery of event ${record.event.id} to ${consumer} failed (attempt ${tries}): ${message}`);
        // Wait, renewing the lease meanwhile so no other instance takes the partition.
        let wait = retryDelay(tries, options.backoff);
        while (wait > 0) {
          if (stopping) return undefined;
          const step = Math.min(wait, leaseMs / 3);
          await new Promise((resolve) => setTimeout(resolve, step));
          wait -= step;
          if (!(await renew())) return undefined;
        }
      }
    }
  }

  /** Drain one leased partition. */
  async function work(lease: OutboxLease): Promise<number> {
    let position = lease.position;
    let handled = 0;
    const renew = (): Promise<boolean> => outbox.advance(lease, position, leaseMs);
    for (;;) {
      const records = await outbox.read({ ...lease, position }, batchSize);
      if (records.length === 0) return handled;
      for (const record of records) {
        if (stopping) {
          await renew();
          return handled;
        }
        const outcome = await attempt(record, renew);
        if (outcome === undefined) return handled;
        position = record.position;
        handled++;
        // A retried or dead-lettered event: record the progress at once.
        if (outcome === false && !(await renew())) return handled;
      }
      if (!(await renew())) return handled;
    }
  }

  async function runOnce(): Promise<number> {
    const busy = new Set(active.keys());
    leases = await outbox.lease(consumer, owner, { max: outbox.partitions, leaseMs, busy: [...busy] });
    metrics.partitions = leases.length;
    const started: Promise<number>[] = [];
    for (const lease of leases) {
      if (busy.has(lease.partition) || active.has(lease.partition)) continue;
      const job = work(lease).finally(() => active.delete(lease.partition));
      active.set(lease.partition, job);
      started.push(job);
    }
    if (retention !== undefined && Date.now() - lastPrune >= retention.intervalMs) {
      lastPrune = Date.now();
      await prune().catch((error) => log('error', 'pruning the events outbox failed', error));
    }
    const counts = await Promise.all(started);
    return counts.reduce((sum, n) => sum + n, 0);
  }

  async function prune(): Promise<PruneResult> {
    const settings = retention ?? { keepMs: 86_400_000, maxEvents: 1_000_000 };
    const result = await outbox.prune({ before: new Date(Date.now() - settings.keepMs), maxEvents: settings.maxEvents });
    if (result.dropped > 0) {
      metrics.dropped += result.dropped;
      log('error', `the events outbox held more than ${settings.maxEvents} events: the ${result.dropped} oldest were dropped undelivered (is a receiver down? see docs/concepts/events.md)`);
    }
    return result;
  }

  return {
    metrics,
    runOnce,
    prune,
    start() {
      if (running) return;
      running = true;
      stopping = false;
      loop = (async () => {
        while (running) {
          let handled = 0;
          try {
            handled = await runOnce();
          } catch (error) {
            log('error', `reading the events outbox for ${consumer} failed`, error);
          }
          if (running && handled === 0) await sleep(pollIntervalMs);
        }
      })();
    },
    async stop() {
      running = false;
      stopping = true;
      wake?.();
      await loop;
      await Promise.allSettled([...active.values()]);
      for (const lease of leases) await outbox.release(lease).catch(() => undefined);
      leases = [];
      metrics.partitions = 0;
      loop = undefined;
      stopping = false;
    },
    async redeliver(eventIds) {
      const wanted = eventIds === undefined ? undefined : new Set(eventIds);
      let count = 0;
      for (const letter of await outbox.deadLetters(consumer, 10_000)) {
        if (wanted !== undefined && !wanted.has(letter.event.id)) continue;
        try {
          await deliver(letter.event);
        } catch (error) {
          log('warn', `redelivery of event ${letter.event.id} to ${consumer} failed: ${error instanceof Error ? error.message : String(error)}`);
          continue;
        }
        await outbox.removeDeadLetter(consumer, letter.event.id);
        metrics.redelivered++;
        count++;
      }
      return count;
    },
  };
}
