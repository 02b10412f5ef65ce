import { err, ok, type Result } from '../../errors/result.js';
import type { PatchResult } from '../../patch/apply-patch.js';
import type { ScimResource } from '../../schema/scim-resource.js';
import type { Exchange } from '../request/exchange.js';
import type { ServedType } from '../config/server-context.js';
import { membersInPatch, membersInResource, type ClientMembers } from './client-displays.js';
import type { Membership } from './membership.js';
import { memberKeyOf } from './member-key.js';
import { missingValue, settleMembers, type SettledMembers } from './settle-members.js';

/** The membership whose `members` `type` holds, if any (the Group type). */
export function membersOn(exchange: Exchange, type: ServedType): Membership | undefined {
  const membership = exchange.context.membership;
  return membership !== undefined && membership.group === type ? membership : undefined;
}

/** POST or PUT of a group: `members` of `body` is the whole new list. */
export function settleWholeGroup(
  exchange: Exchange,
  membership: Membership,
  request: unknown,
  groupId: string,
  body: Readonly<Record<string, unknown>>,
  existing?: ScimResource,
): Promise<Result<SettledMembers>> {
  const client = membersInResource(request, memberKeyOf(membership.members));
  if (client.withoutValue !== undefined) return Promise.resolve(err(missingValue(membership)));
  return settleMembers(exchange, membership, { groupId, body, displays: client.displays, mode: 'whole', ...(existing === undefined ? {} : { existing }) });
}

/** The member elements a PATCH request writes, as sent, read once per request. */
export function patchMembers(membership: Membership, request: unknown): ClientMembers {
  return membersInPatch(request, memberKeyOf(membership.members));
}

/** What the PATCH engine reports about a result: the top-level keys it wrote (schema spelling) and the element-level changes. */
export type EngineReport = Pick<PatchResult, 'touched' | 'changes'>;

/**
 * A PATCH of a group: settle the members it added (or find them, when the engine reports no
 * element-level change for `members`, as for a whole-list replace), unless `members` was not written.
 */
export async function settlePatchedGroup(
  exchange: Exchange,
  membership: Membership,
  client: ClientMembers,
  existing: ScimResource,
  body: Readonly<Record<string, unknown>>,
  report: EngineReport,
): Promise<Result<SettledMembers>> {
  const name = membership.members.name;
  if (client.withoutValue !== undefined) return err(missingValue(membership));
  if (!report.touched.has(name)) return ok({ body });
  const change = report.changes.find((candidate) => candidate.attribute === name);
  return settleMembers(exchange, membership, {
    groupId: existing.id,
    existing,
    body,
    displays: client.displays,
    mode: 'delta',
    ...(client.replacesList === true ? { replacesList: true } : {}),
    ...(change === undefined ? {} : { change }),
  });
}
