import type { ScimEvent } from './scim-event.js';

/** One event as the outbox holds it: its place in its partition, then the event. */
export interface OutboxRecord {
  /** Opaque, ordered within the partition: a consumer resumes after it. */
  readonly position: string;
  readonly partition: number;
  readonly event: ScimEvent;
}

/** A consumer's hold on one partition: only the holder reads and moves its position. */
export interface OutboxLease {
  readonly consumer: string;
  readonly partition: number;
  /** Who holds it (an instance id). */
  readonly owner: string;
  /** Where the consumer stands: the last record it acknowledged (`''` before the first). */
  readonly position: string;
}

/** An event a consumer gave up on after its attempts; kept until redelivered or dropped. */
export interface DeadLetter {
  readonly consumer: string;
  readonly event: ScimEvent;
  readonly attempts: number;
  readonly error: string;
  /** When it was dead-lettered (ISO 8601). */
  readonly at: string;
}

/** What `prune` removed. */
export interface PruneResult {
  /** Events every consumer had passed, older than the retention. */
  readonly pruned: number;
  /** Events removed undelivered because the outbox held more than `maxEvents` (a consumer lags or is down). */
  readonly dropped: number;
}

/**
 * The read side of a store's transactional outbox (`ScimStore.outbox`), for dispatchers such as
 * `@scimkit/events`. Events are spread over `partitions` by resource (`eventPartition`); a
 * consumer (a name: `webhooks`, `set-push`) keeps one position per partition in the store, and
 * instances share the partitions through leases that expire, so an instance that dies hands its
 * partitions over (its unacknowledged events are then delivered again: at least once).
 */
export interface EventOutbox {
  readonly partitions: number;
  /**
   * Take the lease of up to `max` partitions of `consumer` that no one else holds (or whose lease
   * expired), for `leaseMs`; partitions `owner` already holds are renewed and returned too.
   */
  lease(consumer: string, owner: string, options: { readonly max: number; readonly leaseMs: number }): Promise<readonly OutboxLease[]>;
  /**
   * The next records of the lease's partition after `lease.position`, in order, at most `limit`;
   * only records whose write is committed and after which no earlier write can still commit.
   */
  read(lease: OutboxLease, limit: number): Promise<readonly OutboxRecord[]>;
  /** Move the consumer's position to `position` and renew the lease; false when the lease is no longer the owner's. */
  advance(lease: OutboxLease, position: string, leaseMs: number): Promise<boolean>;
  /** Give the lease up (on shutdown), keeping the position. */
  release(lease: OutboxLease): Promise<void>;
  /** Keep an event the consumer gave up on. */
  deadLetter(consumer: string, event: ScimEvent, attempts: number, error: string): Promise<void>;
  /** The consumer's dead letters, oldest first. */
  deadLetters(consumer: string, limit: number): Promise<readonly DeadLetter[]>;
  /** Forget a dead letter (redelivered, or given up on for good). */
  removeDeadLetter(consumer: string, eventId: string): Promise<void>;
  /**
   * Remove events every known consumer has passed and that are older than `before`; then, when
   * more than `maxEvents` remain, the oldest beyond that bound, delivered or not.
   */
  prune(options: { readonly before: Date; readonly maxEvents?: number }): Promise<PruneResult>;
  /** Events after the consumer's positions (its backlog), and its dead letters. */
  stats(consumer: string): Promise<{ readonly backlog: number; readonly deadLetters: number; readonly events: number }>;
}
