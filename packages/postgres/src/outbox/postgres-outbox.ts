import { DEFAULT_EVENT_PARTITIONS, type DeadLetter, type EventOutbox, type OutboxLease, type OutboxRecord, type PruneResult, type ScimEvent } from '@scimkit/core';
import type { SqlClient } from '../sql-client.js';
import { StatementNames } from '../statement-names.js';
import { outboxTables, stampEventsSql } from './outbox-tables.js';

/** A position: the `seq` of the last record passed (`0` before the first). */
function parsePosition(position: string): string {
  return /^\d{1,19}$/.test(position) ? position : '0';
}

/**
 * The read side of `@scimkit/postgres`'s outbox (migration 3). Partitions are leased row by row
 * with `FOR UPDATE SKIP LOCKED`, so instances never wait on each other; each instance takes its
 * share (the partitions divided by the instances seen within a lease) and gives back what it holds
 * beyond it. A consumer's positions are rows: they survive restarts, and an instance that dies
 * leaves leases that expire.
 */
export function createPostgresOutbox(client: SqlClient, options: { readonly schema?: string; readonly partitions?: number } = {}): EventOutbox {
  const t = outboxTables(options.schema ?? 'public');
  const partitions = options.partitions ?? DEFAULT_EVENT_PARTITIONS;
  const known = new Set<string>();
  const stamp = stampEventsSql(t);
  const stampName = new StatementNames().of(stamp);
  /** Rows stamped at a time: enough for several reads. */
  const stampBatch = 1_000;

  return {
    partitions,

    async lease(consumer, owner, { max, leaseMs, busy = [] }) {
      if (!known.has(consumer)) {
        await client.query(`INSERT INTO ${t.positions} (consumer, partition) SELECT $1, g FROM generate_series(0, $2::int - 1) g ON CONFLICT DO NOTHING`, [consumer, partitions]);
        known.add(consumer);
      }
      return client.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO ${t.readers} (consumer, owner, seen_until) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
           ON CONFLICT (consumer, owner) DO UPDATE SET seen_until = excluded.seen_until`,
          [consumer, owner, leaseMs],
        );
        const live = await tx.query<{ n: string }>(`SELECT count(*) AS n FROM ${t.readers} WHERE consumer = $1 AND seen_until > now()`, [consumer]);
        const share = Math.min(max, Math.ceil(partitions / Math.max(1, Number(live.rows[0]?.n ?? 1))));
        // Beyond its share: give back the highest partitions it holds and is not delivering from, for the others to take.
        await tx.query(
          `UPDATE ${t.positions} SET owner = NULL, lease_until = NULL
           WHERE consumer = $1 AND owner = $2 AND NOT (partition = ANY($4::int[])) AND partition IN (
             SELECT partition FROM ${t.positions} WHERE consumer = $1 AND owner = $2 AND lease_until > now() ORDER BY partition OFFSET $3)`,
          [consumer, owner, share, JSON.stringify(busy).replace('[', '{').replace(']', '}')],
        );
        const taken = await tx.query<{ partition: number; seq: string }>(
          `UPDATE ${t.positions} p SET owner = $2, lease_until = now() + $3 * interval '1 millisecond'
           FROM (SELECT consumer, partition FROM ${t.positions}
                 WHERE consumer = $1 AND (owner = $2 OR owner IS NULL OR lease_until IS NULL OR lease_until < now())
                 ORDER BY (owner = $2) DESC NULLS LAST, partition LIMIT $4 FOR UPDATE SKIP LOCKED) free
           WHERE p.consumer = free.consumer AND p.partition = free.partition
           RETURNING p.partition, p.seq::text AS seq`,
          [consumer, owner, leaseMs, share],
        );
        return taken.rows
          .map((row): OutboxLease => ({ consumer, partition: Number(row.partition), owner, position: row.seq }))
          .sort((a, b) => a.partition - b.partition);
      });
    },

    async read(lease, limit) {
      // Stamp what committed since (outboxStampStatements): after a position no row can still get a lower `seq`.
      await client.query(stamp, [lease.partition, Math.max(limit, stampBatch)], stampName);
      const found = await client.query<{ n: string; event: ScimEvent }>(
        `SELECT e.seq::text AS n, e.event FROM ${t.events} e WHERE e.partition = $1 AND e.seq > $2::bigint ORDER BY e.seq LIMIT $3`,
        [lease.partition, parsePosition(lease.position), limit],
      );
      return found.rows.map((row): OutboxRecord => ({ position: row.n, partition: lease.partition, event: row.event }));
    },

    async advance(lease, position, leaseMs) {
      const moved = await client.query(
        `UPDATE ${t.positions} SET seq = greatest(seq, $4::bigint), lease_until = now() + $5 * interval '1 millisecond'
         WHERE consumer = $1 AND partition = $2 AND owner = $3 RETURNING 1`,
        [lease.consumer, lease.partition, lease.owner, parsePosition(position), leaseMs],
      );
      return moved.rows.length > 0;
    },

    async release(lease) {
      await client.query(`UPDATE ${t.positions} SET owner = NULL, lease_until = NULL WHERE consumer = $1 AND partition = $2 AND owner = $3`, [lease.consumer, lease.partition, lease.owner]);
      await client.query(`DELETE FROM ${t.readers} WHERE consumer = $1 AND owner = $2`, [lease.consumer, lease.owner]);
    },

    async deadLetter(consumer, event, attempts, error) {
      await client.query(
        `INSERT INTO ${t.deadLetters} (consumer, event_id, event, attempts, error) VALUES ($1, $2, $3::jsonb, $4, $5)
         ON CONFLICT (consumer, event_id) DO UPDATE SET attempts = excluded.attempts, error = excluded.error, at = now()`,
        [consumer, event.id, JSON.stringify(event), attempts, error.slice(0, 2000)],
      );
    },

    async deadLetters(consumer, limit) {
      const found = await client.query<{ event: ScimEvent; attempts: number; error: string; at: Date | string }>(
        `SELECT event, attempts, error, at FROM ${t.deadLetters} WHERE consumer = $1 ORDER BY at, event_id LIMIT $2`,
        [consumer, limit],
      );
      return found.rows.map((row): DeadLetter => ({ consumer, event: row.event, attempts: Number(row.attempts), error: row.error, at: new Date(row.at).toISOString() }));
    },

    async removeDeadLetter(consumer, eventId) {
      await client.query(`DELETE FROM ${t.deadLetters} WHERE consumer = $1 AND event_id = $2`, [consumer, eventId]);
    },

    async prune({ before, maxEvents }): Promise<PruneResult> {
      const pruned = await client.query(
        `WITH passed AS (SELECT partition, min(seq) AS seq FROM ${t.positions} GROUP BY partition)
         DELETE FROM ${t.events} e USING passed p
         WHERE e.partition = p.partition AND e.seq IS NOT NULL AND e.seq <= p.seq AND e.created_at < $1
         RETURNING 1`,
        [before.toISOString()],
      );
      let dropped = 0;
      if (maxEvents !== undefined) {
        const over = await client.query(
          `DELETE FROM ${t.events} WHERE n IN (
             SELECT n FROM ${t.events} ORDER BY created_at, n
             LIMIT greatest(0, (SELECT count(*) FROM ${t.events}) - $1))
           RETURNING 1`,
          [maxEvents],
        );
        dropped = over.rows.length;
      }
      return { pruned: pruned.rows.length, dropped };
    },

    async stats(consumer) {
      const found = await client.query<{ backlog: string; dead: string; events: string }>(
        `SELECT
           (SELECT count(*) FROM ${t.events} e LEFT JOIN ${t.positions} p ON p.consumer = $1 AND p.partition = e.partition
             WHERE p.consumer IS NULL OR e.seq IS NULL OR e.seq > p.seq) AS backlog,
           (SELECT count(*) FROM ${t.deadLetters} WHERE consumer = $1) AS dead,
           (SELECT count(*) FROM ${t.events}) AS events`,
        [consumer],
      );
      const row = found.rows[0];
      return { backlog: Number(row?.backlog ?? 0), deadLetters: Number(row?.dead ?? 0), events: Number(row?.events ?? 0) };
    },
  };
}
