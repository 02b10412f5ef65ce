import { err, ok, type Result } from '../../errors/result.js';
import { scimError, type ScimError } from '../../errors/scim-error.js';
import { copyArray } from '../../json/copy-array.js';
import type { ScimResource } from '../../schema/scim-resource.js';
import type { MultiValuedChange } from '../../store/scim-store.js';
import type { Exchange } from '../request/exchange.js';
import { groupAncestors } from './group-ancestors.js';
import type { Membership } from './membership.js';
import { isRecord, memberKeyOf, type JsonRecord } from './member-key.js';
import { deltaOfChange, deltaOfEdit, deltaOfLists, type MemberDelta } from './member-delta.js';
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
}

export interface SettledMembers {
  readonly body: Readonly<Record<string, unknown>>;
  /**
   * On a PATCH that adds or removes members: what the write does to `members`, element by element,
   * for the store. Absent when the request sent a whole list: the store then rewrites `members`.
   */
  readonly change?: MultiValuedChange;
}

type KeyOf = (element: unknown) => string | undefined;

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
  const list = arrayAt(write.body, name);
  const stored = write.existing === undefined ? [] : arrayAt(write.existing, name);
  // A whole new list (POST, PUT, a PATCH `replace`) keeps stored members as stored; a PATCH's other
  // operations leave them untouched in the engine's list, and say what changed element by element.
  const wholeList = write.mode === 'whole' || write.replacesList === true;

  const delta = memberDelta(write, stored, list, keyOf, missingValue(membership));
  if (!delta.ok) return delta;
  const resolved = await resolveAdded(exchange, membership, delta.value.added, write.displays);
  if (!resolved.ok) return resolved;
  const cycle = await checkCycle(exchange, membership, write.groupId, resolved.value);
  if (!cycle.ok) return cycle;

  const settled = wholeList
    ? settleWhole(list, stored, resolved.value, write.displays, keyOf)
    : settleDelta(list, resolved.value, delta.value.duplicates, keyOf);
  const body = settled.length === 0 ? withoutMembers(write.body, name) : { ...write.body, [name]: settled };
  // Element-level changes only when kept members are exactly as stored (not after a whole list).
  if (wholeList) return ok({ body });
  const added = [...resolved.value.values()].map(({ element }) => element);
  return ok({ body, change: { attribute: name, added, removed: delta.value.removed } });
}

/** What `write` adds and removes: the engine's change when it reports one, else found by comparing keys. */
function memberDelta(write: MemberWrite, stored: readonly unknown[], list: readonly unknown[], keyOf: KeyOf, missing: ScimError): Result<MemberDelta> {
  if (write.mode === 'delta' && write.change !== undefined) return deltaOfChange(write.change, keyOf, missing);
  if (write.mode === 'delta' && write.replacesList !== true) return deltaOfEdit(stored, list, keyOf, missing);
  return deltaOfLists(stored, list, keyOf, missing);
}

function arrayAt(resource: Readonly<Record<string, unknown>>, name: string): readonly unknown[] {
  const value = resource[name];
  return Array.isArray(value) ? value : [];
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
  keyOf: KeyOf,
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
 * PATCH: a new list, the engine's with each added element replaced by its resolved form (the
 * engine's list itself when nothing was added). Added elements are appended, so the search runs
 * from the end and stops once all are placed (O(added) for the usual add); a list with duplicates is
 * scanned whole and keeps the first of each.
 */
function settleDelta(list: readonly unknown[], resolved: ReadonlyMap<string, Resolved>, duplicates: boolean, keyOf: KeyOf): readonly unknown[] {
  if (duplicates) return firstOfEachKey(list, resolved, keyOf);
  if (resolved.size === 0) return list;
  const out = copyArray(list);
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

/** `list` once per key (the first of each), each added element in its resolved form. */
function firstOfEachKey(list: readonly unknown[], resolved: ReadonlyMap<string, Resolved>, keyOf: KeyOf): unknown[] {
  const seen = new Set<string>();
  const kept: unknown[] = [];
  for (const element of list) {
    const key = keyOf(element);
    if (key === undefined) kept.push(element);
    else if (!seen.has(key)) {
      seen.add(key);
      kept.push(resolved.get(key)?.element ?? element);
    }
  }
  return kept;
}

function withoutMembers(body: Readonly<Record<string, unknown>>, name: string): Record<string, unknown> {
  const { [name]: _dropped, ...rest } = body;
  return rest;
}

/** 400: an element without the `value` that names its member. */
export function missingValue(membership: Membership) {
  return scimError('invalidValue', `${membership.members.name}: a member needs a "value", the id of a ${typeNames(membership)}`);
}
