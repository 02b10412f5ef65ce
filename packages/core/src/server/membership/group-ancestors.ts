import type { Exchange } from '../request/exchange.js';
import { groupsReferencing } from './groups-referencing.js';
import type { Membership } from './membership.js';

/**
 * The ids of every group that contains `groupId`, directly or through nested groups: a walk up
 * the membership graph, one `members.value eq` store query per group reached (never a read of a
 * member list). Adding group `g` to `groupId` makes a cycle exactly when `g` is `groupId` or one of
 * these.
 */
export async function groupAncestors(exchange: Exchange, membership: Membership, groupId: string): Promise<ReadonlySet<string>> {
  const seen = new Set<string>();
  let frontier = [groupId];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const parent of await groupsReferencing(exchange.context, membership, id, exchange.storeContext)) {
        if (seen.has(parent.id) || parent.id === groupId) continue;
        seen.add(parent.id);
        next.push(parent.id);
      }
    }
    frontier = next;
  }
  return seen;
}
