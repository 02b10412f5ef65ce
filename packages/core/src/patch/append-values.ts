import { ok, type Result } from '../errors/result.js';
import type { AttributeDefinition } from '../schema/attribute-definition.js';
import { copyObject, findKey, getKey, isJsonObject, isUnassigned, jsonEqual, type JsonObject } from './json-value.js';
import { checkSubAttributes } from './mutability.js';
import { entryMatcher, sameValue } from './multi-valued.js';
import { findSubAttribute } from './normalize-value.js';
import { valueKeyOf } from './value-key.js';
import { indexedVisits, spend, type WorkBudget } from './work-budget.js';

export interface Appended {
  readonly elements: unknown[];
  /** Indices of the elements this add wrote (appended or merged into). */
  readonly written: number[];
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
): Result<Appended> {
  // Each value appended or merged is a visit: a large `add` is work even on an empty attribute.
  const appending = spend(budget, items.length, at);
  if (!appending.ok) return appending;
  const elements = [...current];
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
      const spent = spend(budget, indexedVisits(elements.length), at);
      if (!spent.ok) return spent;
      for (let i = 0; i < elements.length; i++) {
        const key = keyOf(elements[i]);
        if (key !== undefined) byKey.get(key)?.push(i);
      }
    }
  }
  for (const item of items) {
    if (isUnassigned(item)) continue;
    const key = keyOf?.(item);
    const candidates = key !== undefined ? byKey.get(key) : undefined;
    if (key === undefined) {
      const spent = spend(budget, elements.length, at);
      if (!spent.ok) return spent;
    }
    let index = -1;
    if (key === undefined) index = elements.findIndex(entryMatcher(definition, item));
    // Only elements that share the item's key can match (none: the usual add of a new value).
    else if (candidates !== undefined && candidates.length > 0) index = firstMatching(elements, candidates, entryMatcher(definition, item));
    if (index < 0) {
      const added = elements.push(item) - 1;
      written.push(added);
      if (key !== undefined) addToIndex(byKey, key, added);
      continue;
    }
    const existing = elements[index];
    if (!isJsonObject(existing) || !isJsonObject(item)) continue;
    const merged = mergeChanged(definition, existing, item);
    const checked = checkSubAttributes(definition, existing, merged, at);
    if (!checked.ok) return checked;
    if (!jsonEqual(existing, merged)) elements[index] = merged;
    written.push(index);
  }
  return ok({ elements, written });
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

/** The first of `candidates` (indices into `elements`) whose element `matches`, or -1. */
function firstMatching(elements: readonly unknown[], candidates: readonly number[], matches: (element: unknown) => boolean): number {
  for (const i of candidates) if (matches(elements[i])) return i;
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
