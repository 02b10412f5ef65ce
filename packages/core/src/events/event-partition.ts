/** Default number of partitions an outbox spreads events over. */
export const DEFAULT_EVENT_PARTITIONS = 16;

/**
 * The outbox partition of a resource's events (FNV-1a of tenant, type and id): every event of one
 * resource lands in one partition, so a consumer that reads each partition in order delivers a
 * resource's events in order while instances share the partitions. Stores call it when they
 * write events, so every store spreads them the same way.
 */
export function eventPartition(tenant: string | undefined, resourceType: string, resourceId: string, partitions: number = DEFAULT_EVENT_PARTITIONS): number {
  const text = `${tenant ?? ''}\u0000${resourceType}\u0000${resourceId}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % partitions;
}
