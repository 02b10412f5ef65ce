import type { ScimResource } from '../../schema/scim-resource.js';
import type { Exchange } from '../request/exchange.js';
import { resourceLocation } from '../response/present-resource.js';
import type { Membership } from './membership.js';
import { referrersOf } from './referrers-of.js';
import { displayOf } from './resolve-member.js';

/** One element of a computed `groups` (RFC 7643 §4.1.2). */
export interface GroupReference {
  readonly value: string;
  readonly $ref?: string;
  readonly display?: string;
  readonly type: 'direct' | 'indirect';
}

/**
 * RFC 7643 §4.1.2 `groups` of each of `resources`, computed from the groups whose `members` hold
 * them: `type: "direct"` for those, `"indirect"` for the groups that contain them (transitively).
 * The walk is level by level for the whole page: one store lookup per level (`referrersOf`), so a
 * page of 100 users in groups that nest nothing costs two lookups, not 100, and one when a group
 * cannot be a member (its `members.$ref` names no Group); no member list is read.
 * Each resource's list is in the order of a walk of its own (breadth-first, store order).
 */
export async function computeGroupsOf(exchange: Exchange, membership: Membership, resources: readonly ScimResource[]): Promise<ReadonlyMap<string, GroupReference[]>> {
  const out = new Map<string, GroupReference[]>();
  const seen = new Map<string, Set<string>>();
  /** Per resource, the groups reached at the last level, in order. */
  let frontiers = new Map<string, ScimResource[]>();
  for (const resource of resources) {
    if (out.has(resource.id)) continue;
    out.set(resource.id, []);
    seen.set(resource.id, new Set());
    frontiers.set(resource.id, [resource]);
  }
  let type: 'direct' | 'indirect' = 'direct';
  const nests = membership.memberTypes.includes(membership.group);
  while (frontiers.size > 0) {
    const targets: ScimResource[] = [];
    for (const frontier of frontiers.values()) targets.push(...frontier);
    const referrers = await referrersOf(exchange.context, membership, targets, exchange.storeContext);
    const next = new Map<string, ScimResource[]>();
    for (const [id, frontier] of frontiers) {
      const reached = seen.get(id) as Set<string>;
      const groups = out.get(id) as GroupReference[];
      const further: ScimResource[] = [];
      for (const member of frontier) {
        for (const group of referrers.get(member.id) ?? []) {
          if (reached.has(group.id) || group.id === id) continue;
          reached.add(group.id);
          groups.push(reference(exchange, membership, group, type));
          further.push(group);
        }
      }
      if (further.length > 0) next.set(id, further);
    }
    if (!nests) break;
    frontiers = next;
    type = 'indirect';
  }
  return out;
}

function reference(exchange: Exchange, membership: Membership, group: ScimResource, type: 'direct' | 'indirect'): GroupReference {
  const location = resourceLocation(membership.group, group.id, exchange.baseUrl);
  const display = displayOf(group);
  return { value: group.id, ...(location === undefined ? {} : { $ref: location }), ...(display === undefined ? {} : { display }), type };
}
