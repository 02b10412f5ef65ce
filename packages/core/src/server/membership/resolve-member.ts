import { err, ok, type Result } from '../../errors/result.js';
import { scimError } from '../../errors/scim-error.js';
import type { ScimResource } from '../../schema/scim-resource.js';
import type { Exchange } from '../request/exchange.js';
import { resourceLocation } from '../response/present-resource.js';
import type { ServedType } from '../config/server-context.js';
import type { Membership } from './membership.js';
import { field, type JsonRecord } from './member-key.js';

/** A member as it resolved: the served resource its `value` is the id of. */
export interface FoundMember {
  readonly type: ServedType;
  readonly resource: ScimResource;
}

/**
 * Find what a member element references (docs/concepts/groups-and-membership.md: `members[].value` is the id of a served
 * resource of an allowed type). A `type` the client gave must name a member type (`"Banana"`: 400
 * invalidValue) and is where the id is looked up; without one every member type is tried in order.
 * Undefined when nothing has that id.
 */
export async function findMember(exchange: Exchange, membership: Membership, element: JsonRecord, at: string): Promise<Result<FoundMember | undefined>> {
  const value = field(element, 'value');
  if (typeof value !== 'string' || value === '') {
    return err(scimError('invalidValue', `${at}: a member needs a "value", the id of a ${typeNames(membership)}`));
  }
  const given = field(element, 'type');
  let candidates = membership.memberTypes;
  if (given !== undefined && given !== null) {
    const named = typeof given === 'string' ? membership.memberTypes.find((type) => type.model.definition.name.toLowerCase() === given.toLowerCase()) : undefined;
    if (named === undefined) {
      return err(scimError('invalidValue', `${at}: member "${value}" has type ${JSON.stringify(given)}; a member is a ${typeNames(membership)}`));
    }
    candidates = [named];
  }
  for (const type of candidates) {
    const resource = await exchange.context.store.get(type.model.definition.name, value, exchange.storeContext);
    if (resource !== undefined) return ok({ type, resource });
  }
  if (candidates.length === 1 && membership.memberTypes.length > 1) {
    // The client's `type` found nothing: say so when the id is another member type's (RFC 7643 §4.2
    // `type` is "User" or "Group" and must agree with what `value` identifies).
    const named = candidates[0] as ServedType;
    for (const type of membership.memberTypes) {
      if (type === named || (await exchange.context.store.get(type.model.definition.name, value, exchange.storeContext)) === undefined) continue;
      const is = type.model.definition.name;
      return err(scimError('invalidValue', `${at}: member "${value}" is the id of a ${is}, but its "type" says ${named.model.definition.name}; give "type": "${is}" or leave "type" out`));
    }
  }
  return ok(undefined);
}

/**
 * The element stored for a resolved member: `value` (the id as stored), `$ref` (its location),
 * `type` (its resource type), `display` (the client's, else the resource's `displayName`, else its
 * `userName`), in the schema's order.
 */
export function memberElement(exchange: Exchange, found: FoundMember, clientDisplay: string | undefined): Record<string, unknown> {
  const { type, resource } = found;
  const element: Record<string, unknown> = { value: resource.id };
  const location = resourceLocation(type, resource.id, exchange.baseUrl);
  if (location !== undefined) element['$ref'] = location;
  element['type'] = type.model.definition.name;
  const display = clientDisplay ?? displayOf(resource);
  if (display !== undefined) element['display'] = display;
  return element;
}

/** A resource's human-readable name: `displayName`, else `userName` (a User without one). */
export function displayOf(resource: ScimResource): string | undefined {
  const displayName = resource['displayName'];
  if (typeof displayName === 'string' && displayName !== '') return displayName;
  const userName = resource['userName'];
  return typeof userName === 'string' && userName !== '' ? userName : undefined;
}

/** "User or Group". */
export function typeNames(membership: Membership): string {
  return membership.memberTypes.map((type) => type.model.definition.name).join(' or ');
}
