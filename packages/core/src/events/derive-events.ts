import type { ResourceModel } from '../schema/resource-model.js';
import type { ScimResource } from '../schema/scim-resource.js';
import { URN } from '../schema/urns.js';
import type { CascadedChange, MultiValuedChange } from '../store/scim-store.js';
import { changedPaths } from './changed-paths.js';
import type { EventSettings } from './event-options.js';
import type { ScimEvent } from './scim-event.js';

/** Who made a write: what every event of it carries. */
export interface EventActor {
  readonly tenant?: string;
  readonly requestId: string;
  readonly principal?: unknown;
}

type Kind = 'user' | 'group' | 'other';

/** `user`, `group`, or the resource type's name lower-cased, by the type's core schema. */
function prefixOf(model: ResourceModel): { prefix: string; kind: Kind } {
  const schema = model.core.id;
  if (schema === URN.user) return { prefix: 'user', kind: 'user' };
  if (schema === URN.group) return { prefix: 'group', kind: 'group' };
  return { prefix: model.definition.name.toLowerCase(), kind: 'other' };
}

type Operation = ScimEvent['operation'];

function event(settings: EventSettings, actor: EventActor, operation: Operation, resourceType: string, resourceId: string, type: string, version: string | undefined, extra: Partial<ScimEvent>): ScimEvent {
  const principal = actor.principal === undefined ? undefined : settings.principal(actor.principal);
  return {
    id: globalThis.crypto.randomUUID(),
    type,
    time: new Date().toISOString(),
    ...(actor.tenant === undefined ? {} : { tenant: actor.tenant }),
    resourceType,
    resourceId,
    ...(version === undefined ? {} : { version }),
    operation,
    requestId: actor.requestId,
    ...(principal === undefined ? {} : { principal }),
    ...extra,
  };
}

function withResource(settings: EventSettings, resource: ScimResource): Partial<ScimEvent> {
  return settings.payload === 'resource' ? { resource } : {};
}

/** `<type>.created` for a committed create. */
export function createdEvents(settings: EventSettings, actor: EventActor, model: ResourceModel, created: ScimResource): ScimEvent[] {
  const { prefix } = prefixOf(model);
  return [event(settings, actor, 'create', model.definition.name, created.id, `${prefix}.created`, created.meta.version, withResource(settings, created))];
}

/**
 * The events of a committed replace or PATCH: `<type>.updated` with the changed attribute paths;
 * for a user, `user.deactivated` / `user.reactivated` when `active` turned false / back to true;
 * for a group, `group.members_added` / `group.members_removed` with the member ids (once per
 * write), and `group.updated` only for what changed besides `members`.
 */
export function updatedEvents(
  settings: EventSettings,
  actor: EventActor,
  model: ResourceModel,
  before: ScimResource,
  after: ScimResource,
  changes: readonly MultiValuedChange[] | undefined,
  operation: 'replace' | 'patch',
): ScimEvent[] {
  const { prefix, kind } = prefixOf(model);
  const name = model.definition.name;
  const version = after.meta.version;
  const events: ScimEvent[] = [];
  let paths = changedPaths(before, after, changes);
  if (kind === 'group') {
    const members = memberAttribute(model);
    if (paths.includes(members)) {
      paths = paths.filter((path) => path !== members);
      const { added, removed } = memberDifference(before[members], after[members], changes?.find((change) => change.attribute === members));
      if (added.length > 0) events.push(event(settings, actor, operation, name, after.id, 'group.members_added', version, { members: added }));
      if (removed.length > 0) events.push(event(settings, actor, operation, name, after.id, 'group.members_removed', version, { members: removed }));
    }
    if (paths.length > 0) events.unshift(event(settings, actor, operation, name, after.id, 'group.updated', version, { attributes: paths, ...withResource(settings, after) }));
    return events;
  }
  if (paths.length > 0) events.push(event(settings, actor, operation, name, after.id, `${prefix}.updated`, version, { attributes: paths, ...withResource(settings, after) }));
  if (kind === 'user') {
    if (before.active !== false && after.active === false) events.push(event(settings, actor, operation, name, after.id, 'user.deactivated', version, {}));
    else if (before.active === false && after.active === true) events.push(event(settings, actor, operation, name, after.id, 'user.reactivated', version, {}));
  }
  return events;
}

/**
 * The events of a committed delete: `<type>.deleted`, then `group.members_removed` for every group
 * the delete removed the resource from (the cascade, in the same atomic step or right after).
 */
export function deletedEvents(settings: EventSettings, actor: EventActor, model: ResourceModel, deleted: ScimResource, cascaded: readonly CascadedChange[], groups?: ResourceModel): ScimEvent[] {
  const { prefix } = prefixOf(model);
  const events = [event(settings, actor, 'delete', model.definition.name, deleted.id, `${prefix}.deleted`, deleted.meta.version, {})];
  if (groups !== undefined) for (const change of cascaded) events.push(...updatedEvents(settings, actor, groups, change.before, change.after, undefined, 'patch'));
  return events;
}

/** The Group schema's multi-valued member attribute, in the schema's spelling. */
function memberAttribute(model: ResourceModel): string {
  return model.core.attributes.find((attribute) => attribute.name.toLowerCase() === 'members')?.name ?? 'members';
}

/** Member ids added and removed: from the write's element changes when known, else by comparing the lists. */
function memberDifference(before: unknown, after: unknown, change: MultiValuedChange | undefined): { added: string[]; removed: string[] } {
  if (change !== undefined) return { added: idsOf(change.added), removed: idsOf(change.removed) };
  const was = new Set(idsOf(Array.isArray(before) ? before : []));
  const is = new Set(idsOf(Array.isArray(after) ? after : []));
  return { added: [...is].filter((id) => !was.has(id)), removed: [...was].filter((id) => !is.has(id)) };
}

function idsOf(elements: readonly unknown[]): string[] {
  const ids: string[] = [];
  for (const element of elements) {
    const value = typeof element === 'object' && element !== null ? (element as Record<string, unknown>).value : undefined;
    if (typeof value === 'string' && !ids.includes(value)) ids.push(value);
  }
  return ids;
}
