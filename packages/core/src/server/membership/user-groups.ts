import type { ScimResource } from '../../schema/scim-resource.js';
import type { Exchange } from '../request/exchange.js';
import { resourceLocation } from '../response/present-resource.js';
import { groupsReferencing } from './groups-referencing.js';
import type { Membership } from './membership.js';
import { displayOf } from './resolve-member.js';

/** One element of a computed `groups` (RFC 7643 §4.1.2). */
export interface GroupReference {
  readonly value: string;
  readonly $ref?: string;
  readonly display?: string;
  readonly type: 'direct' | 'indirect';
}

/**
 * RFC 7643 §4.1.2 `groups` of a resource, computed from the groups whose `members` hold it:
 * `type: "direct"` for those, `"indirect"` for the groups that contain them (transitively). Each
 * group reached costs one `members.value eq` store query; no member list is read.
 */
export async function computeGroups(exchange: Exchange, membership: Membership, id: string): Promise<GroupReference[]> {
  const out: GroupReference[] = [];
  const seen = new Set<string>();
  let frontier: string[] = [id];
  let type: 'direct' | 'indirect' = 'direct';
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const member of frontier) {
      for (const group of await groupsReferencing(exchange.context, membership, member, exchange.storeContext)) {
        if (seen.has(group.id) || group.id === id) continue;
        seen.add(group.id);
        out.push(reference(exchange, membership, group, type));
        next.push(group.id);
      }
    }
    frontier = next;
    type = 'indirect';
  }
  return out;
}

function reference(exchange: Exchange, membership: Membership, group: ScimResource, type: 'direct' | 'indirect'): GroupReference {
  const location = resourceLocation(membership.group, group.id, exchange.baseUrl);
  const display = displayOf(group);
  return { value: group.id, ...(location === undefined ? {} : { $ref: location }), ...(display === undefined ? {} : { display }), type };
}
