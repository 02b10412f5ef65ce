import { eventPartition, type ScimEvent } from '@scimkit/core';
import type { SqlQueryable } from '../sql-client.js';
import { insertEventsSql } from './outbox-tables.js';

/**
 * Insert the events of one write, last in the write's transaction (transactional outbox): first
 * the advisory lock of each partition written to, in ascending order (no two writers wait on each
 * other in a cycle), held until the commit, so a partition's rows get their `seq` in commit order;
 * in the same statement as the INSERT. Nothing when there are no events. The partition is the core's `eventPartition`.
 */
export async function writeEvents(tx: SqlQueryable, table: string, events: readonly ScimEvent[] | undefined, partitions: number): Promise<void> {
  if (events === undefined || events.length === 0) return;
  const rows = events.map((event) => [eventPartition(event.tenant, event.resourceType, event.resourceId, partitions), event] as const);
  const locked = [...new Set(rows.map(([partition]) => partition))].sort((a, b) => a - b);
  await tx.query(insertEventsSql(table), [`{${locked.join(',')}}`, JSON.stringify(rows)]);
}
