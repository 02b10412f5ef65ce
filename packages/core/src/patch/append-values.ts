import { ok, type Result } from '../errors/result.js';
import type { AttributeDefinition } from '../schema/attribute-definition.js';
import { findKey, getKey, isJsonObject, isUnassigned, jsonEqual, type JsonObject } from './json-value.js';
import { checkSubAttributes } from './mutability.js';
import { entryMatcher, sameValue } from './multi-valued.js';
import { findSubAttribute } from './normalize-value.js';
import type { ElementKeyCache } from './element-key-cache.js';
import { scanKeys, valueKeyOf } from './value-key.js';
import { indexedVisits, spend, type WorkBudget } from './work-budget.js';

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
  // `current` (often a large frozen stored array) is copied once, at the end, by one `concat`: new
  // values are collected in `appended`, merged ones in `merged` (by index) until then.
  const appended: unknown[] = [];
  const merged = new Map<number, unknown>();
  const elementAt = (i: number): unknown => (i >= current.length ? appended[i - current.length] : merged.has(i) ? merged.get(i) : current[i]);
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
      scanKeys(definition, current, [...byKey.keys()], (i, key) => byKey.get(key)?.push(i), elementKeys);
      // scanKeys reports key by key, each in element order: every list is ascending.
    }
  }
  for (const item of items) {
    if (isUnassigned(item)) continue;
    const matches = entryMatcher(definition, item);
    const key = keyOf?.(item);
    const candidates = key !== undefined ? byKey.get(key) ?? [] : undefined;
    const length = current.length + appended.length;
    if (candidates === undefined) {
      const spent = spend(budget, length, at);
      if (!spent.ok) return spent;
    }
    const index = candidates !== undefined ? (candidates.find((i) => matches(elementAt(i))) ?? -1) : firstIndex(length, (i) => matches(elementAt(i)));
    if (index < 0) {
      const added = current.length + appended.push(item) - 1;
      written.push(added);
      if (key !== undefined) addToIndex(byKey, key, added);
      continue;
    }
    const existing = elementAt(index);
    if (!isJsonObject(existing) || !isJsonObject(item)) continue;
    const next = mergeChanged(definition, existing, item);
    const checked = checkSubAttributes(definition, existing, next, at);
    if (!checked.ok) return checked;
    if (!jsonEqual(existing, next)) {
      if (index >= current.length) appended[index - current.length] = next;
      else merged.set(index, next);
    }
    written.push(index);
  }
  if (appended.length === 0 && merged.size === 0) return ok({ elements: current, written, changed: false });
  const elements = current.concat(appended);
  for (const [index, value] of merged) elements[index] = value;
  return ok({ elements, written, changed: true });
}

/** The first index below `length` that `test` accepts, or -1. */
function firstIndex(length: number, test: (index: number) => boolean): number {
  for (let i = 0; i < length; i++) if (test(i)) return i;
  return -1;
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
    const same = sub === undefined ? jsonEqual(getKey(existing, key), item[key]) : sameValue(sub, getKey(existing, key), item[key]);
    if (!same) changes[key] = item[key];
  }
  return mergeInto(existing, changes);
}

function addToIndex(index: Map<string, number[]>, key: string | undefined, position: number): void {
  if (key === undefined) return;
  const list = index.get(key);
  if (list === undefined) index.set(key, [position]);
  else list.push(position);
}

/** `target` with the keys of `source` written over it, keeping the target's spelling of each key. */
export function mergeInto(target: JsonObject, source: JsonObject): JsonObject {
  const out: JsonObject = { ...target };
  for (const key of Object.keys(source)) out[findKey(out, key) ?? key] = source[key];
  return out;
}
