import { DEFAULT_EVENT_PARTITIONS, eventPartition } from './event-partition.js';
import type { DeadLetter, EventOutbox, OutboxLease, OutboxRecord, PruneResult } from './event-outbox.js';
import type { ScimEvent } from './scim-event.js';

interface Held {
  owner: string;
  until: number;
  position: number;
}

/**
 * The memory store's outbox: an in-process log, appended in the same synchronous step as the
 * write. It promises order and at-least-once delivery within this process only: nothing survives a
 * restart, and two processes do not share it (docs/concepts/events.md).
 */
export class MemoryOutbox implements EventOutbox {
  readonly partitions: number;
  private readonly records: { seq: number; partition: number; event: ScimEvent; at: number }[] = [];
  private seq = 0;
  private readonly positions = new Map<string, Held>();
  private readonly dead = new Map<string, DeadLetter[]>();

  private readonly maxEvents: number;
  /** Events dropped undelivered at the `maxEvents` bound. */
  dropped = 0;

  constructor(partitions: number = DEFAULT_EVENT_PARTITIONS, maxEvents = 100_000) {
    this.partitions = partitions;
    this.maxEvents = maxEvents;
  }

  /** Append the events of one committed write. */
  append(events: readonly ScimEvent[]): void {
    const at = Date.now();
    for (const event of events) {
      this.records.push({ seq: ++this.seq, partition: eventPartition(event.tenant, event.resourceType, event.resourceId, this.partitions), event, at });
    }
    const excess = this.records.length - this.maxEvents;
    if (excess > 0) {
      this.records.splice(0, excess);
      this.dropped += excess;
    }
  }

  async lease(consumer: string, owner: string, options: { max: number; leaseMs: number }): Promise<OutboxLease[]> {
    const now = Date.now();
    const leases: OutboxLease[] = [];
    for (let partition = 0; partition < this.partitions && leases.length < options.max; partition++) {
      const key = `${consumer}\u0000${partition}`;
      const held = this.positions.get(key);
      if (held !== undefined && held.owner !== owner && held.until > now) continue;
      const next = { owner, until: now + options.leaseMs, position: held?.position ?? 0 };
      this.positions.set(key, next);
      leases.push({ consumer, partition, owner, position: String(next.position) });
    }
    return leases;
  }

  async read(lease: OutboxLease, limit: number): Promise<OutboxRecord[]> {
    const after = Number(lease.position || 0);
    const out: OutboxRecord[] = [];
    for (const record of this.records) {
      if (out.length >= limit) break;
      if (record.partition === lease.partition && record.seq > after) out.push({ position: String(record.seq), partition: record.partition, event: record.event });
    }
    return out;
  }

  async advance(lease: OutboxLease, position: string, leaseMs: number): Promise<boolean> {
    const held = this.positions.get(`${lease.consumer}\u0000${lease.partition}`);
    if (held === undefined || held.owner !== lease.owner) return false;
    held.position = Math.max(held.position, Number(position || 0));
    held.until = Date.now() + leaseMs;
    return true;
  }

  async release(lease: OutboxLease): Promise<void> {
    const held = this.positions.get(`${lease.consumer}\u0000${lease.partition}`);
    if (held !== undefined && held.owner === lease.owner) held.until = 0;
  }

  async deadLetter(consumer: string, event: ScimEvent, attempts: number, error: string): Promise<void> {
    const list = this.dead.get(consumer) ?? [];
    list.push({ consumer, event, attempts, error, at: new Date().toISOString() });
    this.dead.set(consumer, list);
  }

  async deadLetters(consumer: string, limit: number): Promise<DeadLetter[]> {
    return (this.dead.get(consumer) ?? []).slice(0, limit);
  }

  async removeDeadLetter(consumer: string, eventId: string): Promise<void> {
    const list = this.dead.get(consumer);
    if (list !== undefined) this.dead.set(consumer, list.filter((letter) => letter.event.id !== eventId));
  }

  async prune(options: { before: Date; maxEvents?: number }): Promise<PruneResult> {
    const cutoff = options.before.getTime();
    const passed = (record: { seq: number; partition: number }): boolean => {
      for (const [key, held] of this.positions) {
        if (Number(key.slice(key.lastIndexOf('\u0000') + 1)) === record.partition && held.position < record.seq) return false;
      }
      return true;
    };
    const kept = this.records.filter((record) => !(record.at < cutoff && passed(record)));
    const pruned = this.records.length - kept.length;
    const excess = options.maxEvents === undefined ? 0 : Math.max(0, kept.length - options.maxEvents);
    this.records.splice(0, this.records.length, ...kept.slice(excess));
    return { pruned, dropped: excess };
  }

  async stats(consumer: string): Promise<{ backlog: number; deadLetters: number; events: number }> {
    let backlog = 0;
    for (const record of this.records) {
      const held = this.positions.get(`${consumer}\u0000${record.partition}`);
      if (record.seq > (held?.position ?? 0)) backlog++;
    }
    return { backlog, deadLetters: this.dead.get(consumer)?.length ?? 0, events: this.records.length };
  }

  /** Every event still held, in append order (tests, tools). */
  events(): ScimEvent[] {
    return this.records.map((record) => record.event);
  }
}
