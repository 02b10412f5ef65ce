import { err, ok, type Result } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import type { AttributeDefinition } from '../schema/attribute-definition.js';
import { findKey, findSubAttribute, getKey, isJsonObject, isUnassigned, jsonEqual, sameElement } from '../values/index.js';
import type { ElementKeyCache } from './element-key-cache.js';
import { scanKeys, valueKeyOf } from './value-key.js';
import { spend, type WorkBudget } from '../budget/patch-visits.js';

/**
 * A test for the existing elements that `candidate` designates: for complex values with a `value`
 * sub-attribute, the same `value` and, when both give one, the same `type` (a group member, an
 * email); otherwise equal sub-attributes. RFC 7644 §3.5.2.1: adding a value already present
 * changes nothing. Sub-attribute definitions are looked up once, not per element.
 */
export function entryMatcher(definition: AttributeDefinition, candidate: unknown): (element: unknown) => boolean {
  if (definition.type !== 'complex') return (element) => sameElement(definition, element, candidate);
  if (!isJsonObject(candidate)) return (element) => jsonEqual(element, candidate);
  const valueSub = findSubAttribute(definition, 'value');
  const value = getKey(candidate, 'value');
  if (valueSub === undefined || isUnassigned(value)) {
    return (element) => isJsonObject(element) && sameElement(definition, element, candidate);
  }
  const typeSub = findSubAttribute(definition, 'type');
  const type = getKey(candidate, 'type');
  const checkType = typeSub !== undefined && !isUnassigned(type);
  return (element) => {
    if (!isJsonObject(element) || !sameElement(valueSub, getKey(element, 'value'), value)) return false;
    if (!checkType) return true;
    const other = getKey(element, 'type');
    return isUnassigned(other) || sameElement(typeSub, other, type);
  };
}

/**
 * Entra's `remove` with a value (`{"value":"<id>"}`): a test for the elements `item` selects. An
 * element matches when every non-null sub-attribute of `item` equals its own, and every null one
 * is absent. An item that gives no sub-attribute matches nothing.
 */
export function removalMatcher(definition: AttributeDefinition, item: unknown): (element: unknown) => boolean {
  if (definition.type !== 'complex') return (element) => item !== null && sameElement(definition, element, item);
  if (!isJsonObject(item)) return () => false;
  const checks: { key: string; expected: unknown; sub: AttributeDefinition | undefined }[] = [];
  let given = 0;
  for (const key of Object.keys(item)) {
    const expected = item[key];
    if (expected !== null) given++;
    checks.push({ key, expected, sub: findSubAttribute(definition, key) });
  }
  if (given === 0) return () => false;
  return (element) => {
    if (!isJsonObject(element)) return false;
    for (const { key, expected, sub } of checks) {
      const actual = getKey(element, key);
      if (expected === null) {
        if (!isUnassigned(actual)) return false;
      } else if (sub === undefined ? !jsonEqual(actual, expected) : !sameElement(sub, actual, expected)) {
        return false;
      }
    }
    return true;
  };
}

/** What {@link removalSelector} gives: the positions of the selected elements, and the cost of finding them. */
export interface RemovalSelector {
  /** The indices of the elements of `elements` that some item selects, ascending (looked up in `elementKeys` when it indexes `elements`). */
  positions(elements: readonly unknown[], elementKeys?: ElementKeyCache): number[];
  /** How many items give no `value`: each is tested against every element (for the budget). */
  readonly unkeyed: number;
}

/**
 * The elements any of `items` selects (see `removalMatcher`). Items are indexed by their `value`,
 * so an element is only tested against the items that can match it, and the elements that share a
 * key with an item are found in one scan that allocates nothing per element (`scanKeys`). Items
 * without a `value` are tested against every element.
 */
export function removalSelector(definition: AttributeDefinition, items: readonly unknown[]): RemovalSelector {
  const keyOf = valueKeyOf(definition);
  const byKey = new Map<string, ((element: unknown) => boolean)[]>();
  const unkeyed: ((element: unknown) => boolean)[] = [];
  for (const item of items) {
    const matcher = removalMatcher(definition, item);
    const key = keyOf?.(item);
    if (key === undefined) unkeyed.push(matcher);
    else {
      const list = byKey.get(key);
      if (list === undefined) byKey.set(key, [matcher]);
      else list.push(matcher);
    }
  }
  const positions = (elements: readonly unknown[], elementKeys?: ElementKeyCache): number[] => {
    const selected: number[] = [];
    scanKeys(
      definition,
      elements,
      [...byKey.keys()],
      (i, key) => {
        if (byKey.get(key)?.some((m) => m(elements[i])) === true) selected.push(i);
      },
      elementKeys,
    );
    // scanKeys reports key by key: put the positions in element order.
    selected.sort((a, b) => a - b);
    if (unkeyed.length === 0) return selected;
    // Every element is tested by the unkeyed items too; merge, keeping the order.
    const chosen = new Set(selected);
    const all: number[] = [];
    for (let i = 0; i < elements.length; i++) if (chosen.has(i) || unkeyed.some((m) => m(elements[i]))) all.push(i);
    return all;
  };
  return { positions, unkeyed: unkeyed.length };
}

/** Removes the elements at `positions` (ascending) from `elements`, in place, keeping the others in order. */
export function removePositions(elements: unknown[], positions: readonly number[]): void {
  const first = positions[0];
  if (first === undefined) return;
  if (positions.length === 1) {
    elements.splice(first, 1);
    return;
  }
  let write = first;
  let next = 0;
  for (let read = first; read < elements.length; read++) {
    if (next < positions.length && positions[next] === read) next++;
    else elements[write++] = elements[read];
  }
  elements.length = write;
}

/**
 * RFC 7644 §3.5.2 / RFC 7643 §2.4: a value written with `primary: true` clears `primary` on the
 * others; at most one written value may carry it. `written` are the indices this operation wrote.
 * Clearing scans the elements once per operation (counted in `budget`), and copies only the
 * elements that carried `primary: true`.
 */
export function enforcePrimary(
  definition: AttributeDefinition,
  elements: unknown[],
  written: readonly number[],
  at: string,
  budget: WorkBudget,
): Result<void> {
  const primarySub = findSubAttribute(definition, 'primary');
  if (primarySub === undefined || written.length === 0) return ok(undefined);
  const key = primarySub.name;
  let chosen: number | undefined;
  for (const i of written) {
    const e = elements[i];
    if (!isJsonObject(e) || getKey(e, key) !== true || i === chosen) continue;
    if (chosen !== undefined) {
      return err(scimError('invalidValue', `${at}: more than one "${definition.name}" value has "primary": true (RFC 7643 §2.4)`));
    }
    chosen = i;
  }
  if (chosen === undefined) return ok(undefined);
  const spent = spend(budget, elements.length, at);
  if (!spent.ok) return spent;
  for (let i = 0; i < elements.length; i++) {
    const e = elements[i];
    if (i !== chosen && isJsonObject(e) && getKey(e, key) === true) elements[i] = { ...e, [findKey(e, key) ?? key]: false };
  }
  return ok(undefined);
}
