import { eventPartition, type ScimEvent } from '@scimkit/core';
import type { Kysely, Transaction } from 'kysely';
import { SQL_OUTBOX_TABLES } from './sql-outbox-tables.js';

/**
 * Append the events of one write to `scim_events`, inside the write's transaction (transactional
 * outbox): one INSERT, in order, no lock (readers number the committed rows: createSqlOutbox).
 * Nothing when there are none.
 */
export async function writeSqlEvents(trx: Transaction<any> | Kysely<any>, events: readonly ScimEvent[] | undefined, partitions: number): Promise<void> {
  if (events === undefined || events.length === 0) return;
  const now = Date.now();
  await trx
    .insertInto(SQL_OUTBOX_TABLES.events)
    .values(events.map((event) => ({ part: eventPartition(event.tenant, event.resourceType, event.resourceId, partitions), created_at: now, event: JSON.stringify(event) })))
    .execute();
}
