import { ok, type Result } from '../errors/result.js';
import type { AttributeDefinition } from '../schema/attribute-definition.js';
import { copyObject } from '../json/with-entry.js';
import { findKey, findSubAttribute, getKey, isJsonObject, isUnassigned, jsonEqual, sameElement, type JsonObject } from '../values/index.js';
import { checkSubAttributes } from './mutability.js';
import { entryMatcher } from './multi-valued.js';
import type { ElementKeyCache } from './element-key-cache.js';
import { NextElements } from './next-elements.js';
import { scanKeys, valueKeyOf, type ValueKey } from './value-key.js';
import { indexedVisits, spend, type WorkBudget } from '../budget/patch-visits.js';

export interface Appended {
  /** The new elements; `current` itself (not a copy) when `changed` is false. */
  readonly elements: readonly unknown[];
  /** Indices of the elements this add wrote (appended or merged into). */
  readonly written: number[];
  /** False when every value was already there as given: nothing appended, nothing merged. */
  readonly changed: boolean;
}

/** What an `add` spends and reports with. */
export interface AppendWork {
  /** The `Operations[i]…` prefix of error details. */
  readonly at: string;
  /** Element visits left to the request. */
  readonly budget: WorkBudget;
  /** The server's indexes of large stored arrays (see ElementKeyCache), when it keeps them. */
  readonly elementKeys: ElementKeyCache | undefined;
}

/**
 * RFC 7644 §3.5.2.1 `add` to a multi-valued attribute: each new value is appended, unless it
 * designates an element already present (see `entryMatcher`), in which case its sub-attributes are
 * merged into that element: adding a value that is already there changes nothing.
 */
export function appendValues(definition: AttributeDefinition, current: readonly unknown[], items: readonly unknown[], work: AppendWork): Result<Appended> {
  // Each value appended or merged is a visit: a large `add` is work even on an empty attribute.
  const appending = spend(work.budget, items.length, work.at);
  if (!appending.ok) return appending;
  const keyOf = valueKeyOf(definition);
  const located = locateKeys(definition, current, items, keyOf, work);
  if (!located.ok) return located;
  const adding = new Adding(definition, new NextElements(current), located.value, work);
  for (const item of items) {
    if (isUnassigned(item)) continue;
    const added = adding.add(item, keyOf?.(item));
    if (!added.ok) return added;
  }
  return ok(adding.next.result());
}

/**
 * The positions in `current` of the elements that share a key with an item, by key, each list
 * ascending: only those can match an item, so adding a few members to a large group allocates
 * nothing per member already there. Empty when the attribute's elements have no key.
 */
function locateKeys(
  definition: AttributeDefinition,
  current: readonly unknown[],
  items: readonly unknown[],
  keyOf: ValueKey | undefined,
  work: AppendWork,
): Result<Map<string, number[]>> {
  const byKey = new Map<string, number[]>();
  if (keyOf === undefined) return ok(byKey);
  for (const item of items) {
    const key = isUnassigned(item) ? undefined : keyOf(item);
    if (key !== undefined) byKey.set(key, []);
  }
  if (byKey.size === 0) return ok(byKey);
  const spent = spend(work.budget, indexedVisits(current.length), work.at);
  if (!spent.ok) return spent;
  // A short array (a user's emails) is keyed in one plain pass: no callback made, nothing worth indexing.
  if (current.length <= SHORT) {
    for (let i = 0; i < current.length; i++) {
      const key = keyOf(current[i]);
      if (key !== undefined) byKey.get(key)?.push(i);
    }
  } else scanKeys(definition, current, [...byKey.keys()], (i, key) => byKey.get(key)?.push(i), work.elementKeys);
  return ok(byKey);
}

/** Arrays up to this long are keyed by `valueKeyOf` element by element rather than by `scanKeys`. */
const SHORT = 16;

const DONE: Result<void> = ok(undefined);

/** The values of one `add`, taken one by one into the array it builds. */
class Adding {
  constructor(
    private readonly definition: AttributeDefinition,
    readonly next: NextElements,
    /** The positions of the elements by key (see locateKeys); appended values join them. */
    private readonly byKey: Map<string, number[]>,
    private readonly work: AppendWork,
  ) {}

  /** `item` (its key `key`, if any): appended, or merged into the element it designates. */
  add(item: unknown, key: string | undefined): Result<void> {
    const index = this.designated(item, key);
    if (!index.ok) return index;
    if (index.value >= 0) return this.mergeAt(index.value, item);
    const added = this.next.append(item);
    if (key !== undefined) {
      const positions = this.byKey.get(key);
      if (positions === undefined) this.byKey.set(key, [added]);
      else positions.push(added);
    }
    return DONE;
  }

  /**
   * The index of the element `item` designates, or -1. Only elements that share its key can (none:
   * the usual add of a new value); an item without a key is compared with every element, a visit each.
   */
  private designated(item: unknown, key: string | undefined): Result<number> {
    if (key !== undefined) {
      const candidates = this.byKey.get(key);
      return ok(candidates === undefined || candidates.length === 0 ? -1 : this.next.firstMatching(candidates, entryMatcher(this.definition, item)));
    }
    const spent = spend(this.work.budget, this.next.length, this.work.at);
    if (!spent.ok) return spent;
    return ok(this.next.firstMatching(undefined, entryMatcher(this.definition, item)));
  }

  /** Merges `item` into the element at `index`; an immutable sub-attribute it changes is an error. */
  private mergeAt(index: number, item: unknown): Result<void> {
    const existing = this.next.at(index);
    if (!isJsonObject(existing) || !isJsonObject(item)) return DONE;
    const merged = mergeChanged(this.definition, existing, item);
    const checked = checkSubAttributes(this.definition, existing, merged, this.work.at);
    if (!checked.ok) return checked;
    this.next.write(index, jsonEqual(existing, merged) ? undefined : merged);
    return DONE;
  }
}

/**
 * `existing` with the sub-attributes of `item` that differ from its own (by caseExact) written over
 * it. An immutable sub-attribute that already has a value is kept: adding a member that is already
 * there changes nothing (RFC 7644 §3.5.2.1), even if the client spells its `$ref` differently.
 */
function mergeChanged(definition: AttributeDefinition, existing: JsonObject, item: JsonObject): JsonObject {
  const changes: JsonObject = {};
  for (const key of Object.keys(item)) {
    const sub = findSubAttribute(definition, key);
    if (sub?.mutability === 'immutable' && !isUnassigned(getKey(existing, key))) continue;
    const same = sub === undefined ? jsonEqual(getKey(existing, key), item[key]) : sameElement(sub, getKey(existing, key), item[key]);
    if (!same) changes[key] = item[key];
  }
  return mergeInto(existing, changes);
}

/** `target` with the keys of `source` written over it, keeping the target's spelling of each key. */
export function mergeInto(target: JsonObject, source: JsonObject): JsonObject {
  const out = copyObject(target);
  for (const key of Object.keys(source)) out[findKey(out, key) ?? key] = source[key];
  return out;
}
