import { DEFAULT_EVENT_PARTITIONS, type DeadLetter, type EventOutbox, type OutboxLease, type OutboxRecord, type PruneResult, type ScimEvent } from '@scimkit/core';
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { detectDialect, type SqlDialectName } from '../dialect.js';
import { SQL_OUTBOX_TABLES as T } from './sql-outbox-tables.js';

/** A position: the `seq` of the last record passed (`0` before the first). */
function parsePosition(position: string): number {
  return /^\d{1,15}$/.test(position) ? Number(position) : 0;
}

const t = (name: string): RawBuilder<unknown> => sql.table(name);

/**
 * The read side of `@scimkit/sql`'s outbox (createSqlOutboxTables), on PostgreSQL, MySQL/MariaDB
 * and SQLite. Writers only append rows (`n`); a reader numbers the committed rows of a partition
 * (`seq`, from the partition's row in `scim_event_stamps`, which it locks: readers of a partition
 * take turns), in `n` order, so a row that commits late is numbered after every number already
 * read and a consumer that resumes after a number never skips a row; two writes of one resource
 * commit one after the other (the resource row's lock), so the first's rows have the lower `n`.
 * Partitions are leased with a conditional UPDATE (an instance takes only what no live lease
 * holds), shared among the instances seen within a lease. Times are the instances' clocks (ms).
 */
export function createSqlOutbox(db: Kysely<any>, options: { readonly dialect?: SqlDialectName; readonly partitions?: number } = {}): EventOutbox {
  const dialect = options.dialect ?? detectDialect(db);
  const partitions = options.partitions ?? DEFAULT_EVENT_PARTITIONS;
  const known = new Set<string>();
  let stampsReady = false;
  /** Rows numbered at a time. */
  const stampBatch = 1_000;
  const list = (values: readonly number[]): RawBuilder<unknown> => sql.join(values.map((v) => sql.lit(v)));
  /** An INSERT that does nothing for a key already present. */
  const insertIgnore = (table: string, columns: string, rows: RawBuilder<unknown>): RawBuilder<unknown> =>
    dialect === 'mysql' ? sql`INSERT IGNORE INTO ${t(table)} (${sql.raw(columns)}) VALUES ${rows}` : sql`INSERT INTO ${t(table)} (${sql.raw(columns)}) VALUES ${rows} ON CONFLICT DO NOTHING`;
  /** Server-side transactions read what committed before each statement (no gap locks on MySQL). */
  const transaction = <R>(work: (trx: Transaction<any>) => Promise<R>): Promise<R> =>
    dialect === 'sqlite' ? db.transaction().execute(work) : db.transaction().setIsolationLevel('read committed').execute(work);
  const claimable = (now: number, owner: string): RawBuilder<boolean> => sql<boolean>`(owner = ${owner} OR owner IS NULL OR lease_until IS NULL OR lease_until < ${now})`;

  async function ensureStamps(): Promise<void> {
    if (stampsReady) return;
    await insertIgnore(T.stamps, 'part, seq', sql.join(Array.from({ length: partitions }, (_, p) => sql`(${sql.lit(p)}, 0)`))).execute(db);
    stampsReady = true;
  }

  /** Number the committed, unnumbered rows of `part`, in insertion order. */
  async function stamp(part: number): Promise<void> {
    // Nothing to number (an idle poll): no write transaction.
    const waiting = await sql`SELECT 1 AS one FROM ${t(T.events)} WHERE part = ${part} AND seq IS NULL LIMIT 1`.execute(db);
    if (waiting.rows.length === 0) return;
    await ensureStamps();
    await transaction(async (trx) => {
      // The partition's turn: its stamps row locked (on SQLite, the database's write lock) until the commit.
      await sql`UPDATE ${t(T.stamps)} SET seq = seq WHERE part = ${part}`.execute(trx);
      let last = Number((await sql<{ seq: unknown }>`SELECT seq FROM ${t(T.stamps)} WHERE part = ${part}`.execute(trx)).rows[0]?.seq ?? 0);
      const rows = await sql<{ n: unknown }>`SELECT n FROM ${t(T.events)} WHERE part = ${part} AND seq IS NULL ORDER BY n LIMIT ${stampBatch}`.execute(trx);
      if (rows.rows.length === 0) return;
      const ns = rows.rows.map((row) => Number(row.n));
      const cases = sql.join(
        ns.map((n, i) => sql`WHEN ${sql.lit(n)} THEN ${sql.lit(last + i + 1)}`),
        sql` `,
      );
      await sql`UPDATE ${t(T.events)} SET seq = CASE n ${cases} END WHERE n IN (${list(ns)})`.execute(trx);
      last += ns.length;
      await sql`UPDATE ${t(T.stamps)} SET seq = ${last} WHERE part = ${part}`.execute(trx);
    });
  }

  return {
    partitions,

    async lease(consumer, owner, { max, leaseMs, busy = [] }) {
      if (!known.has(consumer)) {
        await insertIgnore(T.positions, 'consumer, part', sql.join(Array.from({ length: partitions }, (_, p) => sql`(${consumer}, ${sql.lit(p)})`))).execute(db);
        known.add(consumer);
      }
      return transaction(async (trx) => {
        const now = Date.now();
        const until = now + leaseMs;
        const seen =
          dialect === 'mysql'
            ? sql`INSERT INTO ${t(T.readers)} (consumer, owner, seen_until) VALUES (${consumer}, ${owner}, ${until}) ON DUPLICATE KEY UPDATE seen_until = VALUES(seen_until)`
            : sql`INSERT INTO ${t(T.readers)} (consumer, owner, seen_until) VALUES (${consumer}, ${owner}, ${until}) ON CONFLICT (consumer, owner) DO UPDATE SET seen_until = excluded.seen_until`;
        await seen.execute(trx);
        const live = await sql<{ n: unknown }>`SELECT count(*) AS n FROM ${t(T.readers)} WHERE consumer = ${consumer} AND seen_until > ${now}`.execute(trx);
        const share = Math.min(max, Math.ceil(partitions / Math.max(1, Number(live.rows[0]?.n ?? 1))));
        const held = (await sql<{ part: unknown }>`SELECT part FROM ${t(T.positions)} WHERE consumer = ${consumer} AND owner = ${owner} AND lease_until > ${now} ORDER BY part`.execute(trx)).rows.map((row) => Number(row.part));
        // Beyond its share: give back the highest partitions it holds and is not delivering from, for the others to take.
        const surplus = held.slice(share).filter((part) => !busy.includes(part));
        if (surplus.length > 0) await sql`UPDATE ${t(T.positions)} SET owner = NULL, lease_until = NULL WHERE consumer = ${consumer} AND owner = ${owner} AND part IN (${list(surplus)})`.execute(trx);
        const kept = held.filter((part) => !surplus.includes(part));
        const want = Math.max(0, share - kept.length);
        const free =
          want === 0
            ? []
            : (await sql<{ part: unknown }>`SELECT part FROM ${t(T.positions)} WHERE consumer = ${consumer} AND (owner IS NULL OR lease_until IS NULL OR lease_until < ${now}) ORDER BY part LIMIT ${want}`.execute(trx)).rows.map((row) => Number(row.part));
        const wanted = [...kept, ...free];
        if (wanted.length === 0) return [];
        // Conditional: a partition another instance leased meanwhile stays its.
        await sql`UPDATE ${t(T.positions)} SET owner = ${owner}, lease_until = ${until} WHERE consumer = ${consumer} AND part IN (${list(wanted)}) AND ${claimable(now, owner)}`.execute(trx);
        const taken = await sql<{ part: unknown; seq: unknown }>`SELECT part, seq FROM ${t(T.positions)} WHERE consumer = ${consumer} AND owner = ${owner} AND lease_until = ${until} ORDER BY part`.execute(trx);
        return taken.rows.map((row): OutboxLease => ({ consumer, partition: Number(row.part), owner, position: String(row.seq) }));
      });
    },

    async read(lease, limit) {
      await stamp(lease.partition);
      const found = await sql<{ seq: unknown; event: unknown }>`SELECT seq, event FROM ${t(T.events)} WHERE part = ${lease.partition} AND seq > ${parsePosition(lease.position)} ORDER BY seq LIMIT ${limit}`.execute(db);
      return found.rows.map((row): OutboxRecord => ({ position: String(row.seq), partition: lease.partition, event: parseEvent(row.event) }));
    },

    async advance(lease, position, leaseMs) {
      const seq = parsePosition(position);
      const moved = await sql`UPDATE ${t(T.positions)} SET seq = CASE WHEN seq < ${seq} THEN ${seq} ELSE seq END, lease_until = ${Date.now() + leaseMs}
        WHERE consumer = ${lease.consumer} AND part = ${lease.partition} AND owner = ${lease.owner}`.execute(db);
      return Number(moved.numAffectedRows ?? 0) > 0;
    },

    async release(lease) {
      await sql`UPDATE ${t(T.positions)} SET owner = NULL, lease_until = NULL WHERE consumer = ${lease.consumer} AND part = ${lease.partition} AND owner = ${lease.owner}`.execute(db);
      await sql`DELETE FROM ${t(T.readers)} WHERE consumer = ${lease.consumer} AND owner = ${lease.owner}`.execute(db);
    },

    async deadLetter(consumer, event, attempts, error) {
      const values = sql`(${consumer}, ${event.id}, ${JSON.stringify(event)}, ${attempts}, ${error.slice(0, 2000)}, ${Date.now()})`;
      const upsert =
        dialect === 'mysql'
          ? sql`INSERT INTO ${t(T.deadLetters)} (consumer, event_id, event, attempts, error, at) VALUES ${values} ON DUPLICATE KEY UPDATE attempts = VALUES(attempts), error = VALUES(error), at = VALUES(at)`
          : sql`INSERT INTO ${t(T.deadLetters)} (consumer, event_id, event, attempts, error, at) VALUES ${values} ON CONFLICT (consumer, event_id) DO UPDATE SET attempts = excluded.attempts, error = excluded.error, at = excluded.at`;
      await upsert.execute(db);
    },

    async deadLetters(consumer, limit) {
      const found = await sql<{ event: unknown; attempts: unknown; error: string; at: unknown }>`SELECT event, attempts, error, at FROM ${t(T.deadLetters)} WHERE consumer = ${consumer} ORDER BY at, event_id LIMIT ${limit}`.execute(db);
      return found.rows.map((row): DeadLetter => ({ consumer, event: parseEvent(row.event), attempts: Number(row.attempts), error: row.error, at: new Date(Number(row.at)).toISOString() }));
    },

    async removeDeadLetter(consumer, eventId) {
      await sql`DELETE FROM ${t(T.deadLetters)} WHERE consumer = ${consumer} AND event_id = ${eventId}`.execute(db);
    },

    async prune({ before, maxEvents }): Promise<PruneResult> {
      // Numbered rows every consumer of their partition has passed (a partition no consumer reads keeps its rows).
      const pruned = await sql`DELETE FROM ${t(T.events)} WHERE seq IS NOT NULL AND created_at < ${before.getTime()}
        AND seq <= (SELECT min(p.seq) FROM ${t(T.positions)} p WHERE p.part = ${t(T.events)}.part)`.execute(db);
      let dropped = 0;
      if (maxEvents !== undefined) {
        const counted = await sql<{ n: unknown }>`SELECT count(*) AS n FROM ${t(T.events)}`.execute(db);
        const excess = Number(counted.rows[0]?.n ?? 0) - maxEvents;
        if (excess > 0) {
          const edge = await sql<{ n: unknown }>`SELECT n FROM ${t(T.events)} ORDER BY n LIMIT 1 OFFSET ${excess - 1}`.execute(db);
          const last = edge.rows[0]?.n;
          if (last !== undefined) dropped = Number((await sql`DELETE FROM ${t(T.events)} WHERE n <= ${Number(last)}`.execute(db)).numAffectedRows ?? 0);
        }
      }
      return { pruned: Number(pruned.numAffectedRows ?? 0), dropped };
    },

    async stats(consumer) {
      const found = await sql<{ backlog: unknown; dead: unknown; events: unknown }>`SELECT
          (SELECT count(*) FROM ${t(T.events)} e LEFT JOIN ${t(T.positions)} p ON p.consumer = ${consumer} AND p.part = e.part
            WHERE p.consumer IS NULL OR e.seq IS NULL OR e.seq > p.seq) AS backlog,
          (SELECT count(*) FROM ${t(T.deadLetters)} WHERE consumer = ${consumer}) AS dead,
          (SELECT count(*) FROM ${t(T.events)}) AS events`.execute(db);
      const row = found.rows[0];
      return { backlog: Number(row?.backlog ?? 0), deadLetters: Number(row?.dead ?? 0), events: Number(row?.events ?? 0) };
    },
  };
}

function parseEvent(value: unknown): ScimEvent {
  return (typeof value === 'string' ? JSON.parse(value) : value) as ScimEvent;
}
