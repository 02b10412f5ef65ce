import { err, ok, type Result } from '../../errors/result.js';
import type { ScimError } from '../../errors/scim-error.js';
import type { MultiValuedChange } from '../../store/scim-store.js';
import { isRecord, type JsonRecord } from './member-key.js';

/** What a group write does to its member list, by member key. */
export interface MemberDelta {
  /** The elements to resolve, by key (the first spelling of a key wins). */
  readonly added: ReadonlyMap<string, JsonRecord>;
  /** What a PATCH removed (stored elements). */
  readonly removed: readonly JsonRecord[];
  /** A key is written more than once. */
  readonly duplicates: boolean;
}

type KeyOf = (element: unknown) => string | undefined;

/** The members `change` (the PATCH engine's element-level change) adds and removes. */
export function deltaOfChange(change: MultiValuedChange, keyOf: KeyOf, missing: ScimError): Result<MemberDelta> {
  const added = new Added(keyOf, new Map());
  for (const element of change.added) if (!added.take(element, true)) return err(missing);
  return ok({ added: added.elements, removed: change.removed, duplicates: added.duplicates });
}

/**
 * What `list` adds to and removes from `stored`, as a PATCH without element-level changes writes it:
 * only the part between the unchanged head and tail can differ (see differingPart).
 */
export function deltaOfEdit(stored: readonly unknown[], list: readonly unknown[], keyOf: KeyOf, missing: ScimError): Result<MemberDelta> {
  const diff = differingPart(stored, list);
  return deltaOfLists(diff.stored, diff.current, keyOf, missing);
}

/**
 * What the whole new `list` adds to `stored`, and what it leaves out of it (a stored member
 * absent from the list): every key of the list is checked.
 */
export function deltaOfLists(stored: readonly unknown[], list: readonly unknown[], keyOf: KeyOf, missing: ScimError): Result<MemberDelta> {
  const before = storedByKey(stored, keyOf);
  const added = new Added(keyOf, before);
  for (const element of list) if (!added.take(element, isRecord(element))) return err(missing);
  const removed = [...before].filter(([key]) => !added.seen.has(key)).map(([, element]) => element);
  return ok({ added: added.elements, removed, duplicates: added.duplicates });
}

/** Stored member elements by key (the last of a repeated key). */
function storedByKey(stored: readonly unknown[], keyOf: KeyOf): Map<string, JsonRecord> {
  const byKey = new Map<string, JsonRecord>();
  for (const element of stored) {
    const key = keyOf(element);
    if (key !== undefined && isRecord(element)) byKey.set(key, element);
  }
  return byKey;
}

/** Written elements taken one by one: the new keys (not stored), and whether a key repeats. */
class Added {
  readonly elements = new Map<string, JsonRecord>();
  readonly seen = new Set<string>();
  duplicates = false;

  constructor(
    private readonly keyOf: KeyOf,
    private readonly stored: ReadonlyMap<string, unknown>,
  ) {}

  /** False for an element without a key (no `value`): the write is refused. */
  take(element: unknown, record: boolean): boolean {
    const key = this.keyOf(element);
    if (key === undefined || !record) return false;
    if (this.seen.has(key)) this.duplicates = true;
    else if (!this.stored.has(key)) this.elements.set(key, element as JsonRecord);
    this.seen.add(key);
    return true;
  }
}

/**
 * The parts of two member lists that differ: what lies between their longest common head and tail,
 * elements compared by identity or by `value` (one string comparison each, no allocation). A PATCH
 * that appends or removes one member differs in one element.
 */
function differingPart(stored: readonly unknown[], current: readonly unknown[]): { stored: readonly unknown[]; current: readonly unknown[] } {
  const shorter = Math.min(stored.length, current.length);
  let head = 0;
  while (head < shorter && sameMember(stored[head], current[head])) head++;
  let tail = 0;
  while (tail < shorter - head && sameMember(stored[stored.length - 1 - tail], current[current.length - 1 - tail])) tail++;
  return { stored: stored.slice(head, stored.length - tail), current: current.slice(head, current.length - tail) };
}

function sameMember(a: unknown, b: unknown): boolean {
  return a === b || (isRecord(a) && isRecord(b) && typeof a['value'] === 'string' && a['value'] === b['value'] && a['type'] === b['type']);
}
