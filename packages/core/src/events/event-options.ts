/** `events` in the server configuration: derive an event from every committed write (docs/concepts/events.md). */
export interface EventOptions {
  /**
   * What an event carries besides its identity: `changes` (default) the changed attribute paths and
   * member ids; `resource` also the whole resource after the write.
   */
  readonly payload?: 'changes' | 'resource';
  /**
   * The `principal` of an event, from what `authenticate` returned. Default: a string principal as
   * is, else its string `sub`, `id`, `clientId` or `name`, else none.
   */
  readonly principal?: (principal: unknown) => string | undefined;
}

/** Resolved `events`: what every write site reads. */
export interface EventSettings {
  readonly payload: 'changes' | 'resource';
  readonly principal: (principal: unknown) => string | undefined;
}

/**
 * Resolve `events`. The store must keep an outbox (`capabilities.events`): events are written in
 * the write's own transaction, or not at all. Throws a TypeError at start-up otherwise.
 */
export function resolveEvents(options: EventOptions | false | undefined, storeKeepsEvents: boolean): EventSettings | undefined {
  if (options === undefined || options === false) return undefined;
  if (typeof options !== 'object' || options === null) throw new TypeError('createScimServer: events must be an object or false');
  const { payload = 'changes', principal = defaultPrincipal } = options;
  if (payload !== 'changes' && payload !== 'resource') throw new TypeError(`createScimServer: events.payload must be 'changes' or 'resource', got ${String(payload)}`);
  if (typeof principal !== 'function') throw new TypeError('createScimServer: events.principal must be a function');
  if (!storeKeepsEvents) {
    throw new TypeError('createScimServer: events need a store that writes them with its writes (capabilities.events; see docs/writing-a-store.md)');
  }
  return { payload, principal };
}

function defaultPrincipal(principal: unknown): string | undefined {
  if (typeof principal === 'string') return principal;
  if (typeof principal !== 'object' || principal === null) return undefined;
  const record = principal as Record<string, unknown>;
  for (const key of ['sub', 'id', 'clientId', 'name']) {
    if (typeof record[key] === 'string') return record[key];
  }
  return undefined;
}
