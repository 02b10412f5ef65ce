import { deletedEvents } from '../../../events/derive-events.js';
import type { ScimResource } from '../../../schema/scim-resource.js';
import type { CascadedChange, DeleteContext } from '../../../store/scim-store.js';
import { checkBeforeWrite } from '../../write/before-write.js';
import { actorOf, writeKey, type Exchange } from '../../request/exchange.js';
import { loadResource } from '../../query/load-resource.js';
import { removeReferences, type Membership } from '../../membership/index.js';
import type { ServerCaches } from '../../config/server-caches.js';
import { keyKindOf } from '../../../patch/value-key.js';
import { notFoundError } from '../../query/not-found.js';
import { notifyChange } from '../../observe/notify-change.js';
import { checkIfMatch } from '../../request/precondition.js';
import { changedMeta } from '../../write/resource-meta.js';
import { emptyResponse, errorResponse } from '../../response/serialize.js';
import type { ScimResponse } from '../../request/scim-request.js';
import type { ServedType } from '../../config/server-context.js';
import { ETAG_MISMATCH } from '../../write/write-failure.js';

/**
 * `DELETE {endpoint}/{id}` (RFC 7644 §3.6): 204 with no body; 404 when unknown; with `If-Match`,
 * 412 unless it names the current version, checked and deleted atomically by the store.
 * Deleting a User or Group removes it from every group's `members` (docs/concepts/groups-and-membership.md): atomically by a
 * store with `capabilities.references`, else by the core right after the delete. Each group so
 * changed gets a new version and a `patch` change event.
 */
export async function deleteResource(exchange: Exchange, type: ServedType, id: string): Promise<ScimResponse> {
  const { context, request } = exchange;
  const name = type.model.definition.name;
  const membership = context.membership;
  const referenced = membership !== undefined && membership.memberTypes.includes(type) ? membership : undefined;
  const storeCascades = referenced !== undefined && context.store.capabilities?.references === true;
  const key = writeKey(exchange, name, id);
  const outcome = await context.writes.run(key, async () => {
    const loaded = await loadResource(context, type, id, exchange.storeContext);
    if (!loaded.ok) return loaded;
    const existing = loaded.value;
    const precondition = checkIfMatch(request, existing);
    if (!precondition.ok) return precondition;
    const allowed = await checkBeforeWrite(exchange, { operation: 'delete', resourceType: name, id: existing.id, existing });
    if (!allowed.ok) return allowed;
    const expected = precondition.value === undefined ? undefined : existing.meta.version;
    const events = context.events;
    const ctx: DeleteContext = referenced === undefined && events === undefined ? exchange.storeContext : {
      ...exchange.storeContext,
      ...(referenced === undefined
        ? {}
        : {
            references: [{ resourceType: referenced.group.model.definition.name, attribute: referenced.members.name }],
            touch: (resource: ScimResource) => changedMeta(resource, new Date().toISOString()),
          }),
      ...(events === undefined
        ? {}
        : { events: (cascaded: readonly CascadedChange[]) => deletedEvents(events, actorOf(exchange), type.model, existing, storeCascades ? cascaded : [], referenced?.group.model) }),
    };
    const deleted = await context.store.delete(name, existing.id, expected, ctx);
    if (deleted.ok) {
      context.caches.recent.forget(key);
      return { ok: true as const, value: { existing, cascaded: storeCascades ? (deleted.cascaded ?? []) : undefined } };
    }
    return { ok: false as const, error: deleted.reason === 'notFound' ? notFoundError(context, type, id) : ETAG_MISMATCH };
  });
  if (!outcome.ok) return errorResponse(outcome.error);
  const { existing } = outcome.value;
  let cascaded: readonly CascadedChange[] = outcome.value.cascaded ?? [];
  if (referenced !== undefined && !storeCascades) cascaded = await removeReferences(exchange, referenced, existing.id);
  else if (referenced !== undefined) afterCascade(context.caches, referenced, cascaded, existing.id);
  await notifyChange(exchange, { operation: 'delete', resourceType: name, id: existing.id, before: existing, ...actorOf(exchange) });
  for (const change of cascaded) {
    await notifyChange(exchange, { operation: 'patch', resourceType: change.resourceType, id: change.after.id, before: change.before, after: change.after, ...actorOf(exchange) });
  }
  return emptyResponse(204);
}

/** The groups the store's cascade changed are new stored versions: the server's one after-write call for each. */
function afterCascade(caches: ServerCaches, membership: Membership, cascaded: readonly CascadedChange[], id: string): void {
  const kind = keyKindOf(membership.members);
  const attribute = membership.members.name;
  for (const { before, after } of cascaded) caches.afterWrite({ before, after, ...(kind === undefined ? {} : { removed: { attribute, kind, value: id } }) });
}
