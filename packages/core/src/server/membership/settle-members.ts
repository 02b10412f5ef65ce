import { err, ok, type Result } from '../../errors/result.js';
import { scimError } from '../../errors/scim-error.js';
import type { ScimResource } from '../../schema/scim-resource.js';
import type { MultiValuedChange } from '../../store/scim-store.js';
import type { Exchange } from '../request/exchange.js';
import { groupAncestors } from './group-ancestors.js';
import type { Membership } from './membership.js';
import { isRecord, memberKeyOf, type JsonRecord } from './member-key.js';
import { findMember, memberElement, typeNames, type FoundMember } from './resolve-member.js';

/** A group write whose `members` are to be settled. */
export interface MemberWrite {
  /** The group's id (on create: the id it is about to get). */
  readonly groupId: string;
  /** The stored group (absent on create). */
  readonly existing?: ScimResource;
  /** The validated body about to be stored. */
  readonly body: Readonly<Record<string, unknown>>;
  /** The client's `display` of each member, by member key (see client-displays.ts). */
  readonly displays: ReadonlyMap<string, string>;
  /**
   * `whole`: `body.members` is the complete new list (POST, PUT). `delta`: a PATCH, whose changes
   * are `change` when the PATCH engine reports them, else found by comparing keys with `existing`.
   */
  readonly mode: 'whole' | 'delta';
  readonly change?: MultiValuedChange;
  /** A PATCH that sent whole lists (`replace`): it may repeat a member already kept, so every key is checked. */
  readonly replacesList?: boolean;
  /**
   * `body.members` is private to this write (the array the PATCH engine built for this request):
   * added members are filled in in place instead of in a copy of a possibly large list.
   */
  readonly listOwned?: boolean;
}

export interface SettledMembers {
  readonly body: Readonly<Record<string, unknown>>;
  /**
   * On a PATCH that adds or removes members: what the write does to `members`, element by element,
   * for the store. Absent when the request sent a whole list: the store then rewrites `members`.
   */
  readonly change?: MultiValuedChange;
}

/** Member lookups in flight at once. */
const LOOKUP_CONCURRENCY = 32;

/**
 * Apply the membership rules (docs/concepts/groups-and-membership.md) to a group about to be
 * written: every member added resolves to a served User or Group (else 400 invalidValue naming
 * it, unless dangling references are accepted), gets `type`, `$ref` and `display` from what it
 * resolved to (a client's `display` kept), is listed once however often it was sent, and may not
 * make the group contain itself (400 invalidValue). Members already stored keep what they were
 * stored with. Only added members are looked up, and the graph is only walked when a group is added.
 */
export async function settleMembers(exchange: Exchange, membership: Membership, write: MemberWrite): Promise<Result<SettledMembers>> {
  const name = membership.members.name;
  const keyOf = memberKeyOf(membership.members);
  const current = write.body[name];
  const list: readonly unknown[] = Array.isArray(current) ? current : [];
  const stored = write.existing?.[name];
  const storedList: readonly unknown[] = Array.isArray(stored) ? stored : [];

  // The elements to resolve, by key (the first spelling wins), and what a PATCH removed.
  const added = new Map<string, JsonRecord>();
  let removed: readonly JsonRecord[] = [];
  let duplicates = false;
  if (write.mode === 'delta' && write.change !== undefined) {
    for (const element of write.change.added) {
      const key = keyOf(element);
      if (key === undefined) return err(missingValue(membership));
      if (added.has(key)) duplicates = true;
      else added.set(key, element);
    }
    removed = write.change.removed;
  } else if (write.mode === 'delta' && write.replacesList !== true) {
    // Adds (deduplicated by the engine against what is stored) and removes: only the part of the
    // list between the unchanged head and tail can differ.
    const diff = differingPart(storedList, list);
    const before = new Map<string, JsonRecord>();
    for (const element of diff.stored) {
      const key = keyOf(element);
      if (key !== undefined && isRecord(element)) before.set(key, element);
    }
    const after = new Set<string>();
    for (const element of diff.current) {
      const key = keyOf(element);
      if (key === undefined || !isRecord(element)) return err(missingValue(membership));
      if (after.has(key)) duplicates = true;
      else if (!before.has(key)) added.set(key, element);
      after.add(key);
    }
    removed = [...before].filter(([key]) => !after.has(key)).map(([, element]) => element);
  } else {
    const storedKeys = new Map<string, JsonRecord>();
    for (const element of storedList) {
      const key = keyOf(element);
      if (key !== undefined && isRecord(element)) storedKeys.set(key, element);
    }
    const seen = new Set<string>();
    for (const element of list) {
      const key = keyOf(element);
      if (key === undefined || !isRecord(element)) return err(missingValue(membership));
      if (seen.has(key)) duplicates = true;
      else if (!storedKeys.has(key)) added.set(key, element);
      seen.add(key);
    }
    if (write.mode === 'delta') removed = [...storedKeys].filter(([key]) => !seen.has(key)).map(([, element]) => element);
  }

  const resolved = await resolveAdded(exchange, membership, added, write.displays);
  if (!resolved.ok) return resolved;
  const cycle = await checkCycle(exchange, membership, write.groupId, resolved.value);
  if (!cycle.ok) return cycle;

  // A whole new list (POST, PUT, a PATCH `replace`) keeps stored members as stored; a PATCH's other
  // operations leave them untouched in the engine's list.
  const wholeList = write.mode === 'whole' || write.replacesList === true;
  const settled = wholeList ? settleWhole(list, storedList, resolved.value, write.displays, keyOf) : settleDelta(list, resolved.value, duplicates, keyOf, write.listOwned === true);
  const body = settled.length === 0 ? withoutMembers(write.body, name) : { ...write.body, [name]: settled };
  // Element-level changes only when kept members are exactly as stored (not after a whole list).
  if (wholeList) return ok({ body });
  return ok({ body, change: { attribute: name, added: [...resolved.value.values()].map(({ element }) => element), removed } });
}

/**
 * The parts of two member lists that differ: what lies between their longest common head and tail,
 * elements compared by identity or by `value` (one string comparison each, no allocation). A PATCH
 * that appends or removes one member differs in one element.
 */
function differingPart(stored: readonly unknown[], current: readonly unknown[]): { stored: readonly unknown[]; current: readonly unknown[] } {
  const same = (a: unknown, b: unknown): boolean =>
    a === b || (isRecord(a) && isRecord(b) && typeof a['value'] === 'string' && a['value'] === b['value'] && a['type'] === b['type']);
  const shorter = Math.min(stored.length, current.length);
  let head = 0;
  while (head < shorter && same(stored[head], current[head])) head++;
  let tail = 0;
  while (tail < shorter - head && same(stored[stored.length - 1 - tail], current[current.length - 1 - tail])) tail++;
  return { stored: stored.slice(head, stored.length - tail), current: current.slice(head, current.length - tail) };
}

interface Resolved {
  readonly element: Record<string, unknown>;
  readonly found?: FoundMember;
}

/** Look up every added member (a bounded number at once); 400 for one that resolves to nothing. */
async function resolveAdded(
  exchange: Exchange,
  membership: Membership,
  added: ReadonlyMap<string, JsonRecord>,
  displays: ReadonlyMap<string, string>,
): Promise<Result<Map<string, Resolved>>> {
  const out = new Map<string, Resolved>();
  const entries = [...added];
  for (let start = 0; start < entries.length; start += LOOKUP_CONCURRENCY) {
    const batch = entries.slice(start, start + LOOKUP_CONCURRENCY);
    const found = await Promise.all(batch.map(([, element]) => findMember(exchange, membership, element, membership.members.name)));
    for (let i = 0; i < batch.length; i++) {
      const [key, element] = batch[i] as [string, JsonRecord];
      const result = found[i] as Result<FoundMember | undefined>;
      if (!result.ok) return result;
      if (result.value !== undefined) {
        out.set(key, { element: memberElement(exchange, result.value, displays.get(key)), found: result.value });
      } else if (membership.dangling === 'accept') {
        const display = displays.get(key);
        out.set(key, { element: display === undefined ? { ...element } : { ...element, display } });
      } else {
        const value = element['value'] ?? Object.entries(element).find(([k]) => k.toLowerCase() === 'value')?.[1];
        return err(scimError('invalidValue', `${membership.members.name}: "${String(value)}" is not the id of a ${typeNames(membership)}`));
      }
    }
  }
  return ok(out);
}

/** 400 when an added group is the group itself or already contains it (RFC 7643 §4.2 nesting, no cycles). */
async function checkCycle(exchange: Exchange, membership: Membership, groupId: string, resolved: ReadonlyMap<string, Resolved>): Promise<Result<void>> {
  const groups = [...resolved.values()].filter(({ found }) => found?.type === membership.group).map(({ found }) => (found as FoundMember).resource.id);
  if (groups.length === 0) return ok(undefined);
  const cycle = (id: string) =>
    err(scimError('invalidValue', `${membership.members.name}: adding group "${id}" would make group "${groupId}" a member of itself`));
  const self = groups.find((id) => id === groupId);
  if (self !== undefined) return cycle(self);
  const ancestors = await groupAncestors(exchange, membership, groupId);
  const looping = groups.find((id) => ancestors.has(id));
  return looping === undefined ? ok(undefined) : cycle(looping);
}

/** POST/PUT: the list in the client's order, once per member; stored members as stored, with a new client `display`. */
function settleWhole(
  list: readonly unknown[],
  storedList: readonly unknown[],
  resolved: ReadonlyMap<string, Resolved>,
  displays: ReadonlyMap<string, string>,
  keyOf: (element: unknown) => string | undefined,
): unknown[] {
  const stored = new Map<string, unknown>();
  for (const element of storedList) {
    const key = keyOf(element);
    if (key !== undefined && !stored.has(key)) stored.set(key, element);
  }
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (const element of list) {
    const key = keyOf(element) as string;
    if (seen.has(key)) continue;
    seen.add(key);
    const fresh = resolved.get(key);
    if (fresh !== undefined) {
      out.push(fresh.element);
      continue;
    }
    const kept = stored.get(key);
    const display = displays.get(key);
    out.push(display !== undefined && isRecord(kept) ? { ...kept, display } : kept);
  }
  return out;
}

/**
 * PATCH: the engine's list with each added element replaced by its resolved form. Added elements
 * are appended, so the search runs from the end and stops once all are placed (O(added) for the
 * usual add); a list with duplicates is scanned whole and keeps the first of each. The list is
 * copied first unless `owned` (see `MemberWrite.listOwned`).
 */
function settleDelta(
  list: readonly unknown[],
  resolved: ReadonlyMap<string, Resolved>,
  duplicates: boolean,
  keyOf: (element: unknown) => string | undefined,
  owned: boolean,
): readonly unknown[] {
  // Only removals: the engine's list is the result (shared, never mutated).
  if (resolved.size === 0 && !duplicates) return list;
  if (duplicates) {
    const seen = new Set<string>();
    const kept: unknown[] = [];
    for (const element of list) {
      const key = keyOf(element);
      if (key !== undefined && seen.has(key)) continue;
      if (key !== undefined) seen.add(key);
      kept.push(key === undefined ? element : (resolved.get(key)?.element ?? element));
    }
    return kept;
  }
  const out = owned ? (list as unknown[]) : list.slice();
  let placed = 0;
  for (let i = out.length - 1; i >= 0 && placed < resolved.size; i--) {
    const key = keyOf(out[i]);
    const fresh = key === undefined ? undefined : resolved.get(key);
    if (fresh === undefined) continue;
    out[i] = fresh.element;
    placed++;
  }
  return out;
}

function withoutMembers(body: Readonly<Record<string, unknown>>, name: string): Record<string, unknown> {
  const { [name]: _dropped, ...rest } = body;
  return rest;
}

/** 400: an element without the `value` that names its member. */
export function missingValue(membership: Membership) {
  return scimError('invalidValue', `${membership.members.name}: a member needs a "value", the id of a ${typeNames(membership)}`);
}
