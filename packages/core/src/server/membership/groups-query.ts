import type { AttrPath, Filter } from '../../filter/ast.js';
import { compileFilter } from '../../filter/compile-filter.js';
import type { ResourceModel } from '../../schema/resource-model.js';
import type { ScimResource } from '../../schema/scim-resource.js';
import type { StoreQueryResult } from '../../store/scim-store.js';
import type { Exchange } from '../request/exchange.js';
import { queryResources, type TypeQuery } from '../query/query-resources.js';
import type { ServedType } from '../config/server-context.js';
import { computedOn, withGroups } from './computed-groups.js';
import { GROUPS, type Membership } from './membership.js';
import type { MemberDigest } from './member-digest.js';
import { memberKeyOf } from './member-key.js';

/**
 * A list or search query over one type. Where `groups` is computed (User) and the filter or sort
 * names it, the query cannot go to the store (which does not hold `groups`):
 * - `groups.value eq "<gid>"` (or `groups[value eq "<gid>"]`), alone or `and`ed with conditions on
 *   stored attributes: the users are the members of group `gid` and of the groups nested in it,
 *   read from those groups (no scan of users); without other conditions or a sort, only the page's
 *   users are read;
 * - anything else (`groups.display co "x"`, `sortBy=groups.value`): every candidate gets its
 *   computed `groups` and the query runs in memory.
 * Every other query goes to `queryResources` as is.
 */
export async function queryType(exchange: Exchange, type: ServedType, query: TypeQuery): Promise<StoreQueryResult> {
  const membership = computedOn(exchange, type);
  const model = type.model;
  const groupsInSort = query.sort !== undefined && isGroups(model, query.sort.path);
  if (membership === undefined || !((query.filter !== undefined && mentionsGroups(model, query.filter)) || groupsInSort)) {
    return queryResources(exchange.context, type, query, exchange.storeContext);
  }
  const conjunct = query.filter === undefined ? undefined : groupConjunct(model, query.filter);
  const store = exchange.context.store;
  const name = type.model.definition.name;
  const fetch = async (ids: readonly string[]): Promise<ScimResource[]> => {
    const found: ScimResource[] = [];
    for (const id of ids) {
      const resource = await store.get(name, id, exchange.storeContext);
      if (resource !== undefined) found.push(resource);
    }
    return found;
  };

  if (conjunct !== undefined && !groupsInSort && (conjunct.rest === undefined || !mentionsGroups(model, conjunct.rest))) {
    const candidates = await membersWithin(exchange, membership, type, conjunct.group);
    const rest = conjunct.rest === undefined ? undefined : compileFilter(conjunct.rest, type.model);
    if (rest !== undefined && !rest.ok) return { totalResults: 0, resources: [] };
    if (rest === undefined && query.compare === undefined && candidates.typed && query.page !== undefined) {
      const start = query.page.startIndex - 1;
      return { totalResults: candidates.ids.length, resources: await fetch(candidates.ids.slice(start, start + query.page.count)) };
    }
    const resources = await fetch(candidates.ids);
    return page(rest === undefined ? resources : resources.filter(rest.value), query);
  }

  const base =
    conjunct !== undefined
      ? await fetch((await membersWithin(exchange, membership, type, conjunct.group)).ids)
      : (await queryResources(exchange.context, type, { matches: () => true }, exchange.storeContext)).resources;
  const served = await withGroups(exchange, membership, base);
  return page(served.filter(query.matches), query);
}

function page(resources: ScimResource[], query: TypeQuery): StoreQueryResult {
  const sorted = query.compare === undefined ? resources : resources.sort(query.compare);
  if (query.page === undefined) return { totalResults: sorted.length, resources: sorted };
  const start = query.page.startIndex - 1;
  return { totalResults: sorted.length, resources: sorted.slice(start, start + query.page.count) };
}

/** The member ids of one type within a group, in member order. */
interface Candidates {
  readonly ids: readonly string[];
  /** Every member element said it is of this type (set when it was resolved on write): no need to read them to count them. */
  readonly typed: boolean;
}

/**
 * The members of `type` in group `groupId` and, transitively, in the groups nested in it, once
 * each, in member order. Reads those groups only; each member list is read through its digest
 * (one pass, remembered per stored version), so a group that nests none answers from the digest.
 */
async function membersWithin(exchange: Exchange, membership: Membership, type: ServedType, groupId: string): Promise<Candidates> {
  const keyOf = memberKeyOf(membership.members);
  const groupName = membership.group.model.definition.name;
  const typeName = type.model.definition.name;
  const digestOf = async (id: string): Promise<MemberDigest | undefined> => {
    const { store, caches } = exchange.context;
    const group = await store.get(groupName, id, exchange.storeContext);
    const members = group === undefined ? undefined : caches.adopt(group)[membership.members.name];
    return Array.isArray(members) ? caches.digests.of(members, typeName, groupName) : undefined;
  };
  const first = await digestOf(groupId);
  if (first === undefined) return { ids: [], typed: true };
  // Members are stored once per group (settleMembers): only members reached through several groups repeat.
  if (first.groups.every((nested) => nested === groupId)) return first;

  const ids = [...first.ids];
  let typed = first.typed;
  const seen = new Set(ids.map((member) => keyOf({ value: member }) as string));
  const seenGroups = new Set<string>([groupId]);
  let frontier = first.groups.filter((nested) => !seenGroups.has(nested) && (seenGroups.add(nested), true));
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const id of frontier) {
      const digest = await digestOf(id);
      if (digest === undefined) continue;
      for (const nested of digest.groups) {
        if (seenGroups.has(nested)) continue;
        seenGroups.add(nested);
        next.push(nested);
      }
      for (const member of digest.ids) {
        const key = keyOf({ value: member }) as string;
        if (seen.has(key)) continue;
        seen.add(key);
        ids.push(member);
      }
      typed &&= digest.typed;
    }
    frontier = next;
  }
  return { ids, typed };
}

/** `groups.value eq "<gid>"` or `groups[value eq "<gid>"]`, alone or as one side of an `and`. */
function groupConjunct(model: ResourceModel, filter: Filter): { group: string; rest?: Filter } | undefined {
  const direct = groupEquality(model, filter);
  if (direct !== undefined) return { group: direct };
  if (filter.kind !== 'and') return undefined;
  const left = groupConjunct(model, filter.left);
  if (left !== undefined) return { group: left.group, rest: left.rest === undefined ? filter.right : { kind: 'and', left: left.rest, right: filter.right } };
  const right = groupConjunct(model, filter.right);
  if (right !== undefined) return { group: right.group, rest: right.rest === undefined ? filter.left : { kind: 'and', left: filter.left, right: right.rest } };
  return undefined;
}

function groupEquality(model: ResourceModel, filter: Filter): string | undefined {
  if (filter.kind === 'compare') {
    return isGroups(model, filter.path) && filter.path.subAttr?.toLowerCase() === 'value' && filter.op === 'eq' && typeof filter.value === 'string' ? filter.value : undefined;
  }
  if (filter.kind === 'valuePath' && isGroups(model, filter.path) && filter.path.subAttr === undefined) {
    const inner = filter.filter;
    if (inner.kind === 'compare' && inner.path.attr.toLowerCase() === 'value' && inner.path.subAttr === undefined && inner.op === 'eq' && typeof inner.value === 'string') {
      return inner.value;
    }
  }
  return undefined;
}

function mentionsGroups(model: ResourceModel, filter: Filter): boolean {
  switch (filter.kind) {
    case 'compare':
    case 'present':
    case 'valuePath':
      return isGroups(model, filter.path);
    case 'and':
    case 'or':
      return mentionsGroups(model, filter.left) || mentionsGroups(model, filter.right);
    case 'not':
      return mentionsGroups(model, filter.filter);
  }
}

/** `groups`, `groups.value`, `urn:…:core:2.0:User:groups…`: the computed attribute of `model`. */
function isGroups(model: ResourceModel, path: AttrPath): boolean {
  const resolved = model.resolve({ ...(path.uri === undefined ? {} : { uri: path.uri }), attr: path.attr });
  return resolved !== undefined && !resolved.extension && resolved.attribute.name === GROUPS;
}
