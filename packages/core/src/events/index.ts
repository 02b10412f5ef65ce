export type { ScimEvent, ScimEventType } from './scim-event.js';
export type { EventOptions, EventSettings } from './event-options.js';
export { resolveEvents } from './event-options.js';
export type { EventOutbox, OutboxLease, OutboxRecord, DeadLetter, PruneResult } from './event-outbox.js';
export { MemoryOutbox } from './memory-outbox.js';
export { eventPartition, DEFAULT_EVENT_PARTITIONS } from './event-partition.js';
export { createdEvents, updatedEvents, deletedEvents, type EventActor } from './derive-events.js';
