import { err, ok, type Result } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import { copyArray } from '../json/copy-array.js';
import type { ResolvedAttribute } from '../schema/resource-model.js';
import { appendValues, mergeInto } from './append-values.js';
import { commitValue, readPath, type ElementDelta } from './working-copy.js';
import { assignedEqual, getKey, isJsonObject, isUnassigned } from '../values/index.js';
import { enforcePrimary, removalSelector, removePositions } from './multi-valued.js';
import { checkMutability, checkRequired, checkSubAttributes } from './mutability.js';
import { normalizeValue } from './normalize-value.js';
import type { PatchContext, WriteRequest } from './patch-context.js';
import { indexedVisits, spend } from '../budget/patch-visits.js';

/** The dotted name of a resolved attribute, for error details: `name.givenName`. */
export function attributeName(resolved: ResolvedAttribute): string {
  return resolved.subAttribute === undefined ? resolved.attribute.name : `${resolved.attribute.name}.${resolved.subAttribute.name}`;
}

/**
 * `add`, `replace` or `remove` on an attribute, or on a sub-attribute of a single-valued complex
 * attribute (RFC 7644 §3.5.2.1–3):
 * - single-valued: add and replace set the value; a complex value is merged sub-attribute by
 *   sub-attribute (those not given are left unchanged);
 * - multi-valued: add appends (values already present are not added twice), replace replaces all;
 * - remove unassigns; with a `value` on a multi-valued attribute it removes the matching elements
 *   (option `removeValueArray`);
 * - `null` (and `[]` for replace) unassigns, as RFC 7643 §2.5 reads them.
 */
export function writeAttribute(ctx: PatchContext, resolved: ResolvedAttribute, req: WriteRequest): Result<void> {
  const { target, keys } = resolved;
  const name = attributeName(resolved);
  const readOnly = target.mutability === 'readOnly' || resolved.attribute.mutability === 'readOnly';
  if (readOnly && req.explicit) return err(scimError('mutability', `${req.at}: "${name}" is readOnly and cannot be modified`));

  const before = readPath(ctx.doc, keys);
  const next = nextValue(ctx, resolved, req, before, name);
  if (!next.ok) return next;
  const { value: after, delta } = next.value;

  const mutable = checkMutability(target, name, before, after, req.at);
  if (!mutable.ok) return mutable;
  if (target.type === 'complex' && !target.multiValued) {
    const subs = checkSubAttributes(target, before, after, req.at);
    if (!subs.ok) return subs;
  }
  if (resolved.subAttribute === undefined) {
    const required = checkRequired(target, name, before, after, req.at);
    if (!required.ok) return required;
  }

  if (assignedEqual(before, after)) return ok(undefined);
  return commitValue(ctx, keys, after, delta);
}

/** The attribute's new value; `delta` when it is the old one with elements removed or appended. */
interface NextValue {
  readonly value: unknown;
  readonly delta: ElementDelta | undefined;
}

const whole = (value: unknown): Result<NextValue> => ok({ value, delta: undefined });

function nextValue(ctx: PatchContext, resolved: ResolvedAttribute, req: WriteRequest, before: unknown, name: string): Result<NextValue> {
  const { target } = resolved;
  if (req.op === 'remove') {
    if (!req.hasValue || req.value === null || !target.multiValued) return whole(undefined);
    // Entra ID: {"op":"Remove","path":"members","value":[{"value":"<id>"}]}
    if (!ctx.options.removeValueArray) {
      return err(scimError('invalidValue', `${req.at}: "remove" takes no value; select the values to remove with a filter, e.g. ${name}[value eq "…"]`));
    }
    const items = normalizeValue(target, req.value, ctx.options, req.at);
    if (!items.ok) return items;
    const current = Array.isArray(before) ? before : [];
    const selector = removalSelector(target, items.value as unknown[]);
    const spent = spend(ctx.budget, indexedVisits(current.length) + selector.unkeyed * current.length, req.at);
    if (!spent.ok) return spent;
    const positions = selector.positions(current, ctx.elementKeys);
    // Nothing selected: the value stays the stored array itself (nothing to compare or write).
    if (positions.length === 0) return whole(current);
    const removed = at(current, positions);
    const value = copyArray(current);
    removePositions(value, positions);
    return Array.isArray(before) ? ok({ value, delta: { removed, added: [] } }) : whole(value);
  }

  const value = normalizeValue(target, req.value, ctx.options, req.at);
  if (!value.ok) return value;
  if (value.value === null) return whole(req.op === 'add' ? before : undefined);

  if (target.multiValued) {
    const items = assignedOnly(value.value as unknown[]);
    if (req.op === 'replace') {
      const primary = enforcePrimary(target, items, indices(items.length), req.at, ctx.budget);
      return primary.ok ? whole(items) : primary;
    }
    const current = Array.isArray(before) ? before : isUnassigned(before) ? [] : [before];
    const appended = appendValues(target, current, items, { at: req.at, budget: ctx.budget, elementKeys: ctx.elementKeys });
    if (!appended.ok) return appended;
    const { written, changed } = appended.value;
    // Every value already there as given (Entra re-adding a member): the stored array itself, not
    // a copy to compare, unless a `primary: true` among them clears `primary` on the others.
    if (!changed && Array.isArray(before) && !anyPrimary(current, written)) return whole(before);
    const elements = changed ? (appended.value.elements as unknown[]) : copyArray(current);
    const primary = enforcePrimary(target, elements, written, req.at, ctx.budget);
    if (!primary.ok) return primary;
    // Only appended (or already there, unchanged), and no `primary: true` that cleared it on other
    // elements: an element-level change.
    if (!Array.isArray(before) || !appendedOnly(current, elements, written)) return whole(elements);
    return ok({ value: elements, delta: { removed: [], added: elements.slice(current.length) } });
  }

  if (target.type === 'complex' && isJsonObject(value.value)) {
    // RFC 7644 §3.5.2.3: sub-attributes not given are left unchanged.
    return whole(isJsonObject(before) ? mergeInto(before, value.value) : value.value);
  }
  return whole(value.value);
}

/** Whether each written element was appended (or is the stored one) and carries no `primary: true`. */
function appendedOnly(current: readonly unknown[], elements: readonly unknown[], written: readonly number[]): boolean {
  for (const i of written) if (!((i >= current.length || elements[i] === current[i]) && !carriesPrimary(elements[i]))) return false;
  return true;
}

/** Whether an element at one of `positions` carries `primary: true`. */
function anyPrimary(elements: readonly unknown[], positions: readonly number[]): boolean {
  for (const i of positions) if (carriesPrimary(elements[i])) return true;
  return false;
}

/** The elements at `positions`, in their order. */
function at(elements: readonly unknown[], positions: readonly number[]): unknown[] {
  const out: unknown[] = [];
  for (const i of positions) out.push(elements[i]);
  return out;
}

/** The values that are assigned (RFC 7643 §2.5), as a new array. */
function assignedOnly(values: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const value of values) if (!isUnassigned(value)) out.push(value);
  return out;
}

/** 0, 1, …, length − 1. */
function indices(length: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < length; i++) out.push(i);
  return out;
}

function carriesPrimary(element: unknown): boolean {
  return isJsonObject(element) && getKey(element, 'primary') === true;
}
