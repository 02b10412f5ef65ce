import { ok, type Result } from '../errors/result.js';
import type { AttributeDefinition } from '../schema/attribute-definition.js';
import { copyArray } from '../json/copy-array.js';
import { copyObject } from '../json/with-entry.js';
import { findKey, findSubAttribute, getKey, isJsonObject, isUnassigned, jsonEqual, sameElement, type JsonObject } from '../values/index.js';
import { checkSubAttributes } from './mutability.js';
import { entryMatcher } from './multi-valued.js';
import type { ElementKeyCache } from './element-key-cache.js';
import { scanKeys, valueKeyOf } from './value-key.js';
import { indexedVisits, spend, type WorkBudget } from '../budget/patch-visits.js';

export interface Appended {
  /** The new elements; `current` itself (not a copy) when `changed` is false. */
  readonly elements: readonly unknown[];
  /** Indices of the elements this add wrote (appended or merged into). */
  readonly written: number[];
  /** False when every value was already there as given: nothing appended, nothing merged. */
  readonly changed: boolean;
}

/**
 * RFC 7644 §3.5.2.1 `add` to a multi-valued attribute: each new value is appended, unless it
 * designates an element already present (see `entryMatcher`), in which case its sub-attributes are
 * merged into that element: adding a value that is already there changes nothing.
 */
export function appendValues(
  definition: AttributeDefinition,
  current: readonly unknown[],
  items: readonly unknown[],
  at: string,
  budget: WorkBudget,
  elementKeys?: ElementKeyCache,
): Result<Appended> {
  // Each value appended or merged is a visit: a large `add` is work even on an empty attribute.
  const appending = spend(budget, items.length, at);
  if (!appending.ok) return appending;
  // `current` (often a large frozen stored array) is copied once, at the end (copyArray): new
  // values are collected in `appended`, merged ones in `merged` (by index, made when one is) until then.
  const appended: unknown[] = [];
  let merged: Map<number, unknown> | undefined;
  const written: number[] = [];
  const keyOf = valueKeyOf(definition);
  // Only the elements that share a key with an item can match one: index just those, so adding a
  // few members to a large group allocates nothing per member already there.
  const byKey = new Map<string, number[]>();
  if (keyOf !== undefined) {
    for (const item of items) {
      const key = isUnassigned(item) ? undefined : keyOf(item);
      if (key !== undefined) byKey.set(key, []);
    }
    if (byKey.size > 0) {
      const spent = spend(budget, indexedVisits(current.length), at);
      if (!spent.ok) return spent;
      // scanKeys reports key by key, each in element order: every list is ascending. A short array
      // (a user's emails) is keyed in one plain pass: no callback made, nothing worth indexing.
      if (current.length <= SHORT) {
        for (let i = 0; i < current.length; i++) {
          const key = keyOf(current[i]);
          if (key !== undefined) byKey.get(key)?.push(i);
        }
      } else scanKeys(definition, current, [...byKey.keys()], (i, key) => byKey.get(key)?.push(i), elementKeys);
    }
  }
  for (const item of items) {
    if (isUnassigned(item)) continue;
    const key = keyOf?.(item);
    const candidates = key !== undefined ? byKey.get(key) : undefined;
    const length = current.length + appended.length;
    if (key === undefined) {
      const spent = spend(budget, length, at);
      if (!spent.ok) return spent;
    }
    let index = -1;
    if (key === undefined) index = firstMatching(current, appended, merged, undefined, length, entryMatcher(definition, item));
    // Only elements that share the item's key can match (none: the usual add of a new value).
    else if (candidates !== undefined && candidates.length > 0) index = firstMatching(current, appended, merged, candidates, length, entryMatcher(definition, item));
    if (index < 0) {
      const added = current.length + appended.push(item) - 1;
      written.push(added);
      if (key !== undefined) addToIndex(byKey, key, added);
      continue;
    }
    const existing = elementAt(current, appended, merged, index);
    if (!isJsonObject(existing) || !isJsonObject(item)) continue;
    const next = mergeChanged(definition, existing, item);
    const checked = checkSubAttributes(definition, existing, next, at);
    if (!checked.ok) return checked;
    if (!jsonEqual(existing, next)) {
      if (index >= current.length) appended[index - current.length] = next;
      else (merged ??= new Map()).set(index, next);
    }
    written.push(index);
  }
  if (appended.length === 0 && merged === undefined) return ok({ elements: current, written, changed: false });
  const elements = copyArray(current, appended);
  if (merged !== undefined) for (const [index, value] of merged) elements[index] = value;
  return ok({ elements, written, changed: true });
}

/** Arrays up to this long are keyed by `valueKeyOf` element by element rather than by `scanKeys`. */
const SHORT = 16;

/** The element at `index` of the array being built: `current` then `appended`, with `merged` written over. */
function elementAt(current: readonly unknown[], appended: readonly unknown[], merged: ReadonlyMap<number, unknown> | undefined, index: number): unknown {
  if (index >= current.length) return appended[index - current.length];
  return merged !== undefined && merged.has(index) ? merged.get(index) : current[index];
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

/**
 * The first index of the array being built (see {@link elementAt}) whose element `matches`, or -1:
 * among `candidates` (ascending indices) when given, else among the first `length`.
 */
function firstMatching(
  current: readonly unknown[],
  appended: readonly unknown[],
  merged: ReadonlyMap<number, unknown> | undefined,
  candidates: readonly number[] | undefined,
  length: number,
  matches: (element: unknown) => boolean,
): number {
  if (candidates !== undefined) {
    for (const i of candidates) if (matches(elementAt(current, appended, merged, i))) return i;
    return -1;
  }
  for (let i = 0; i < length; i++) if (matches(elementAt(current, appended, merged, i))) return i;
  return -1;
}

function addToIndex(index: Map<string, number[]>, key: string | undefined, position: number): void {
  if (key === undefined) return;
  const list = index.get(key);
  if (list === undefined) index.set(key, [position]);
  else list.push(position);
}

/** `target` with the keys of `source` written over it, keeping the target's spelling of each key. */
export function mergeInto(target: JsonObject, source: JsonObject): JsonObject {
  const out = copyObject(target);
  for (const key of Object.keys(source)) out[findKey(out, key) ?? key] = source[key];
  return out;
}
