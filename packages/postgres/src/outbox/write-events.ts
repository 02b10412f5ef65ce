import { eventPartition, type ScimEvent } from '@scimkit/core';
import type { SqlQueryable } from '../sql-client.js';
import { insertEventsSql } from './outbox-tables.js';

/** The parameter of an events INSERT: `[[partition, event], …]` as JSON. The partition is the core's `eventPartition`. */
export function eventParam(events: readonly ScimEvent[], partitions: number): string {
  return JSON.stringify(events.map((event) => [eventPartition(event.tenant, event.resourceType, event.resourceId, partitions), event]));
}

/**
 * Insert the events of one write inside the write's transaction (transactional outbox): a plain
 * append, no lock (readers order the rows: outboxStampStatements). Nothing when there are no events.
 */
export async function writeEvents(tx: SqlQueryable, table: string, events: readonly ScimEvent[] | undefined, partitions: number, name?: string): Promise<void> {
  if (events === undefined || events.length === 0) return;
  await tx.query(insertEventsSql(table), [eventParam(events, partitions)], name);
}
