import { updatedEvents } from '../../events/derive-events.js';
import type { ScimResource } from '../../schema/scim-resource.js';
import type { CascadedChange } from '../../store/scim-store.js';
import { backoff, MAX_WRITE_ATTEMPTS } from '../write/update-resource.js';
import { actorOf, writeKey, type Exchange } from '../request/exchange.js';
import { changedMeta } from '../write/resource-meta.js';
import { groupsReferencing } from './groups-referencing.js';
import type { Membership } from './membership.js';
import { memberKeyOf } from './member-key.js';

/**
 * After a delete, for a store without `capabilities.references`: remove the deleted id from the
 * `members` of every group that holds it (found by `members.value eq`), one compare-and-swap per
 * group, re-read and retried when another write won. Each group changed gets a new version; the
 * store is told which elements went (`changes`). Returns the groups changed.
 *
 * Each group's removal runs in the queue of that group's writes (`writeKey`: tenant, type and id,
 * the key PATCH and PUT use), so it follows a write of the group in flight in this server instead of
 * racing it, and starts from the group as that write stored it (KeyedMutex.leave).
 */
export async function removeReferences(exchange: Exchange, membership: Membership, id: string): Promise<CascadedChange[]> {
  const { context } = exchange;
  const name = membership.group.model.definition.name;
  const cascaded: CascadedChange[] = [];
  for (const found of await groupsReferencing(context, membership, id, exchange.storeContext)) {
    const key = writeKey(exchange, name, found.id);
    const changed = await context.writes.run(key, () => removeFrom(exchange, membership, (context.writes.take(key) as ScimResource | undefined) ?? found, id, key));
    if (changed !== undefined) cascaded.push(changed);
  }
  return cascaded;
}

async function removeFrom(exchange: Exchange, membership: Membership, found: ScimResource, id: string, key: string): Promise<CascadedChange | undefined> {
  const { context } = exchange;
  const name = membership.group.model.definition.name;
  const attribute = membership.members.name;
  const keyOf = memberKeyOf(membership.members);
  const target = keyOf({ value: id });
  let current: ScimResource | undefined = found;
  for (let attempt = 1; current !== undefined && attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
    const members = current[attribute];
    if (!Array.isArray(members)) return undefined;
    const kept = members.filter((element) => keyOf(element) !== target);
    if (kept.length === members.length) return undefined;
    const removed = members.filter((element) => keyOf(element) === target) as Readonly<Record<string, unknown>>[];
    const { [attribute]: _members, ...rest } = current;
    const next = { ...rest, ...(kept.length === 0 ? {} : { [attribute]: kept }), meta: changedMeta(current, new Date().toISOString()) } as ScimResource;
    const before: ScimResource = current;
    const changes = [{ attribute, added: [], removed }];
    const events = context.events;
    const written = await context.store.replace(name, current.id, next, current.meta.version, {
      ...exchange.storeContext,
      unique: membership.group.model.unique,
      changes,
      ...(events === undefined ? {} : { events: (stored: ScimResource) => updatedEvents(events, actorOf(exchange), membership.group.model, before, stored, changes, 'patch') }),
    });
    if (written.ok) {
      context.caches.afterWrite({ before, after: written.resource, changes });
      context.writes.leave(key, written.resource);
      return { resourceType: name, before: current, after: written.resource };
    }
    if (written.reason !== 'versionMismatch') return undefined;
    await backoff(attempt);
    current = await context.store.get(name, found.id, exchange.storeContext);
  }
  return undefined;
}
