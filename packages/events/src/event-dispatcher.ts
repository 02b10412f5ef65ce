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
  /**
   * Deliveries in flight at once, across the partitions this instance holds. One resource's
   * events are never in flight together: they go one after the other, in order. Default 32.
   */
  readonly concurrency?: number;
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

/** During an outage: one `error` record at the first failed poll, then one at most this often. */
const OUTAGE_REPORT_MS = 30_000;
/** During an outage the pause between polls doubles from the poll interval up to this. */
const OUTAGE_POLL_MS = 2_000;

/** The pause after the `failing`-th failed poll in a row. */
function outagePause(pollIntervalMs: number, failing: number): number {
  return Math.max(pollIntervalMs, Math.min(pollIntervalMs * 2 ** Math.min(failing - 1, 16), OUTAGE_POLL_MS));
}

const CONSOLE: ScimLogger = { log: (record) => (record.level === 'error' || record.level === 'warn' ? console.error(`[scimkit events] ${record.message}`, record.error ?? '') : undefined) };

/**
 * Reads a consumer's share of the outbox partitions and delivers each partition's events at least
 * once, in order per resource: a partition is read a batch at a time, the batch's events are
 * delivered concurrently (up to `concurrency` in flight) except that one resource's events go one
 * after the other, and the partition's position moves past the batch in one statement once every
 * event of it is delivered or dead-lettered. An instance that dies leaves its partitions to
 * another instance, which delivers the unacknowledged events again (receivers deduplicate on the
 * event id). A failed delivery is retried with exponential backoff and jitter, holding its
 * resource (and its partition's position), and dead-lettered after `maxAttempts`.
 */
export function createEventDispatcher(options: EventDispatcherOptions): EventDispatcher {
  const { outbox, consumer, deliver } = options;
  const owner = options.owner ?? globalThis.crypto.randomUUID();
  const batchSize = options.batchSize ?? 100;
  const concurrency = Math.max(1, options.concurrency ?? 32);
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
  /** Deliveries in flight, and those waiting for a slot (a slot is handed over, never freed and retaken). */
  let inFlight = 0;
  const waiting: (() => void)[] = [];

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

  /** One delivery within the `concurrency` bound. */
  async function inSlot(event: ScimEvent): Promise<void> {
    if (inFlight >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    else inFlight++;
    try {
      await deliver(event);
    } finally {
      const next = waiting.shift();
      if (next !== undefined) next();
      else inFlight--;
    }
  }

  /** Deliver one record with retries; true when delivered, false when dead-lettered; undefined when stopped (or the lease lost) first. */
  async function attempt(record: OutboxRecord, renew: () => Promise<boolean>): Promise<boolean | undefined> {
    for (let tries = 1; ; tries++) {
      try {
        await inSlot(record.event);
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

  /**
   * Deliver one batch of a partition: each resource's records in order, the resources
   * concurrently. Returns how many of the batch, from its start, were handled (delivered or
   * dead-lettered) with every record before them; fewer than the batch when stopped or the lease was lost.
   */
  async function deliverBatch(records: readonly OutboxRecord[], renew: (handledPrefix: number) => Promise<boolean>): Promise<{ prefix: number; handled: number }> {
    const done: boolean[] = records.map(() => false);
    const chains = new Map<string, number[]>();
    records.forEach((record, index) => {
      const { tenant, resourceType, resourceId } = record.event;
      const key = `${tenant ?? ''}\u0000${resourceType}\u0000${resourceId}`;
      const chain = chains.get(key);
      if (chain === undefined) chains.set(key, [index]);
      else chain.push(index);
    });
    const prefix = (): number => {
      let n = 0;
      while (n < done.length && done[n]) n++;
      return n;
    };
    let halted = false;
    let handled = 0;
    const keepLease = async (): Promise<boolean> => (await renew(prefix())) || ((halted = true), false);
    await Promise.all(
      [...chains.values()].map(async (chain) => {
        for (const index of chain) {
          if (stopping || halted) return;
          const outcome = await attempt(records[index]!, keepLease);
          if (outcome === undefined) return void (halted = true);
          done[index] = true;
          handled++;
        }
      }),
    );
    return { prefix: prefix(), handled };
  }

  /** Drain one leased partition, a batch at a time. */
  async function work(lease: OutboxLease): Promise<number> {
    let position = lease.position;
    let handled = 0;
    for (;;) {
      if (stopping) return handled;
      const records = await outbox.read({ ...lease, position }, batchSize);
      if (records.length === 0) return handled;
      const base = position;
      const at = (prefix: number): string => (prefix === 0 ? base : records[prefix - 1]!.position);
      const batch = await deliverBatch(records, (prefix) => outbox.advance(lease, at(prefix), leaseMs));
      handled += batch.handled;
      position = at(batch.prefix);
      // The batch in one statement: the position moves past every record handled in order.
      if (!(await outbox.advance(lease, position, leaseMs)) || batch.prefix < records.length) return handled;
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
        // Polls failing in a row (the database is down): reported once, then at most every
        // OUTAGE_REPORT_MS, and polled less often, up to OUTAGE_POLL_MS apart, until one succeeds.
        let failing = 0;
        let reported = 0;
        while (running) {
          let handled = 0;
          try {
            handled = await runOnce();
            if (failing > 0) log('warn', `reading the events outbox for ${consumer} works again after ${failing} failed poll(s)`);
            failing = 0;
          } catch (error) {
            failing++;
            const now = Date.now();
            if (failing === 1 || now - reported >= OUTAGE_REPORT_MS) {
              reported = now;
              log('error', failing === 1 ? `reading the events outbox for ${consumer} failed` : `reading the events outbox for ${consumer} still fails (${failing} polls in a row)`, error);
            }
          }
          if (running && handled === 0) await sleep(failing === 0 ? pollIntervalMs : outagePause(pollIntervalMs, failing));
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
