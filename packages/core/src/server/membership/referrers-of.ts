import type { ScimResource } from '../../schema/scim-resource.js';
import type { StoreContext } from '../../store/scim-store.js';
import type { ServerContext } from '../config/server-context.js';
import { groupsReferencing } from './groups-referencing.js';
import type { Membership } from './membership.js';

/**
 * The groups whose `members` hold each of `targets`, by target id, each list in the store's order:
 * one `ScimStore.referrers` call for all of them when the store has it (the store may answer from
 * what it read with the targets, see docs/writing-a-store.md "Referrers"), else one
 * `members.value eq "<id>"` query per target.
 */
export async function referrersOf(
  context: ServerContext,
  membership: Membership,
  targets: readonly ScimResource[],
  ctx: StoreContext,
): Promise<ReadonlyMap<string, readonly ScimResource[]>> {
  const found = new Map<string, ScimResource[]>();
  if (targets.length === 0) return found;
  const store = context.store;
  if (store.referrers === undefined) {
    for (const target of targets) {
      if (!found.has(target.id)) found.set(target.id, [...(await groupsReferencing(context, membership, target.id, ctx))]);
    }
    return found;
  }
  const unique = new Map<string, ScimResource>();
  for (const target of targets) if (!unique.has(target.id)) unique.set(target.id, target);
  for (const referral of await store.referrers(membership.lookup, [...unique.values()], ctx)) {
    if (!unique.has(referral.id)) continue;
    let list = found.get(referral.id);
    if (list === undefined) found.set(referral.id, (list = []));
    if (!list.some((held) => held.id === referral.referrer.id)) list.push(referral.referrer);
  }
  return found;
}
