import { eventPartition, type ScimEvent } from '@scimkit/core';
import type { SqlQueryable } from '../sql-client.js';

/**
 * Insert the events of one write, inside the write's transaction (transactional outbox): one
 * statement, nothing when there are none. The partition is the core's `eventPartition`.
 */
export async function writeEvents(tx: SqlQueryable, table: string, events: readonly ScimEvent[] | undefined, partitions: number): Promise<void> {
  if (events === undefined || events.length === 0) return;
  const rows = events.map((event) => [eventPartition(event.tenant, event.resourceType, event.resourceId, partitions), event]);
  await tx.query(
    `INSERT INTO ${table} (partition, id, tenant, event)
     SELECT (e->>0)::smallint, e->1->>'id', coalesce(e->1->>'tenant', ''), e->1 FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, n) ORDER BY n`,
    [JSON.stringify(rows)],
  );
}
