import { eventPartition, type ScimEvent } from '@scimkit/core';
import type { SqlQueryable } from '../sql-client.js';
import { partitionLockSql } from './outbox-tables.js';

/**
 * Insert the events of one write, last in the write's transaction (transactional outbox): first
 * the advisory lock of each partition written to, in ascending order (no two writers wait on each
 * other in a cycle), held until the commit, so a partition's rows get their `seq` in commit order;
 * then one INSERT. Nothing when there are no events. The partition is the core's `eventPartition`.
 */
export async function writeEvents(tx: SqlQueryable, table: string, events: readonly ScimEvent[] | undefined, partitions: number): Promise<void> {
  if (events === undefined || events.length === 0) return;
  const rows = events.map((event) => [eventPartition(event.tenant, event.resourceType, event.resourceId, partitions), event] as const);
  const locked = [...new Set(rows.map(([partition]) => partition))].sort((a, b) => a - b);
  await tx.query(partitionLockSql(table), [`{${locked.join(',')}}`]);
  await tx.query(
    `INSERT INTO ${table} (partition, id, tenant, event)
     SELECT (e->>0)::smallint, e->1->>'id', coalesce(e->1->>'tenant', ''), e->1 FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, n) ORDER BY n`,
    [JSON.stringify(rows)],
  );
}
