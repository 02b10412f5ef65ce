import { err, ok, type Result } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import { printFilter } from '../filter/print-filter.js';
import { copyArray } from '../json/copy-array.js';
import { copyObject, setOwn } from '../json/with-entry.js';
import type { AttributeDefinition } from '../schema/attribute-definition.js';
import { mergeInto } from './append-values.js';
import { elementFromFilter } from './element-from-filter.js';
import { commitValue, readPath } from './working-copy.js';
import { cloneJson } from '../json/clone-json.js';
import { assignedEqual, findKey, isJsonObject, isUnassigned, jsonEqual, type JsonObject } from '../values/index.js';
import { enforcePrimary } from './multi-valued.js';
import { checkMutability, checkRequired, checkSubAttributes } from './mutability.js';
import { normalizeElement, normalizeValue } from './normalize-value.js';
import type { PatchContext, WriteRequest } from './patch-context.js';
import type { ElementsTarget } from './patch-target.js';
import { ELEMENT_WRITE_VISITS, spend } from '../budget/patch-visits.js';

/**
 * Operations on selected elements of a multi-valued attribute (RFC 7644 §3.5.2): `emails[type eq
 * "work"]`, `emails[type eq "work"].value`, and `emails.value` (every element).
 * - remove: the matching elements (or that sub-attribute of them) go; no match changes nothing;
 * - replace: each matching element is replaced (or that sub-attribute of it set);
 * - add: the value is merged into each matching element (or that sub-attribute set);
 * - add with no match: a new element built from the filter's `eq` conditions and the value;
 * - replace with no match: 400 noTarget, or such a new element (option `createMissingValuePath`).
 */
export function writeElements(ctx: PatchContext, target: ElementsTarget, req: WriteRequest): Result<void> {
  const { resolved, subAttribute } = target;
  const attribute = resolved.attribute;
  const name = subAttribute === undefined ? attribute.name : `${attribute.name}.${subAttribute.name}`;
  if (attribute.mutability === 'readOnly' || subAttribute?.mutability === 'readOnly') {
    return err(scimError('mutability', `${req.at}: "${name}" is readOnly and cannot be modified`));
  }

  const before = readPath(ctx.doc, resolved.keys);
  const elements: unknown[] = Array.isArray(before) ? copyArray(before) : isUnassigned(before) ? [] : [before];
  const spent = spend(ctx.budget, elements.length, req.at);
  if (!spent.ok) return spent;
  const matched: number[] = [];
  for (let i = 0; i < elements.length; i++) if (target.matches(elements[i])) matched.push(i);
  const writes = spend(ctx.budget, matched.length * ELEMENT_WRITE_VISITS, req.at);
  if (!writes.ok) return writes;

  const edited =
    subAttribute === undefined
      ? editElements(ctx, target, attribute, req, elements, matched)
      : editSubAttribute(ctx, target, attribute, subAttribute, req, elements, matched);
  if (!edited.ok) return edited;
  const after = edited.value;

  const same = sameElements(before, after);
  if (attribute.mutability === 'immutable' && !isUnassigned(before) && !same) {
    return err(scimError('mutability', `${req.at}: "${attribute.name}" is immutable and already has a value`));
  }
  const required = checkRequired(attribute, attribute.name, before, after, req.at);
  if (!required.ok) return required;

  if (same) return ok(undefined);
  // Removing whole elements of an array: the others are kept in order, as they were.
  const removal = req.op === 'remove' && subAttribute === undefined && Array.isArray(before);
  return commitValue(ctx, resolved.keys, after, removal ? { removed: matched.map((i) => elements[i]), added: [] } : undefined);
}

/**
 * Whether the edited copy says what `before` said (unassigned values aside). Elements an operation
 * did not write are the same objects, so they are compared by identity first.
 */
function sameElements(before: unknown, after: unknown[]): boolean {
  if (!Array.isArray(before)) return assignedEqual(before, after);
  if (before.length !== after.length) return false;
  for (let i = 0; i < after.length; i++) if (before[i] !== after[i] && !assignedEqual(before[i], after[i])) return false;
  return true;
}

/** Whole elements: remove, replace or merge the matching ones. */
function editElements(
  ctx: PatchContext,
  target: ElementsTarget,
  attribute: AttributeDefinition,
  req: WriteRequest,
  elements: unknown[],
  matched: readonly number[],
): Result<unknown[]> {
  const selected = new Set(matched);
  if (req.op === 'remove') return ok(elements.filter((_, i) => !selected.has(i)));
  const value = normalizeElement(attribute, req.value, ctx.options, req.at);
  if (!value.ok) return value;
  if (isUnassigned(value.value)) return ok(req.op === 'replace' ? elements.filter((_, i) => !selected.has(i)) : elements);

  const written: number[] = [];
  if (matched.length === 0) {
    const created = createMissing(ctx, target, attribute, req, (base) => (isJsonObject(value.value) ? withKeys(base, value.value) : undefined));
    if (!created.ok) return created;
    written.push(elements.push(created.value) - 1);
  }
  for (const i of matched) {
    const old = elements[i];
    const next = req.op === 'add' && isJsonObject(old) && isJsonObject(value.value) ? mergeInto(old, value.value) : cloneJson(value.value);
    const checked = checkSubAttributes(attribute, old, next, req.at);
    if (!checked.ok) return checked;
    elements[i] = next;
    written.push(i);
  }
  const primary = enforcePrimary(attribute, elements, written, req.at, ctx.budget);
  return primary.ok ? ok(elements) : primary;
}

/** One sub-attribute of the matching elements: remove it, or set it. */
function editSubAttribute(
  ctx: PatchContext,
  target: ElementsTarget,
  attribute: AttributeDefinition,
  sub: AttributeDefinition,
  req: WriteRequest,
  elements: unknown[],
  matched: readonly number[],
): Result<unknown[]> {
  const name = `${attribute.name}.${sub.name}`;
  let value: unknown = undefined;
  if (req.op !== 'remove') {
    const normalized = normalizeValue(sub, req.value, ctx.options, req.at);
    if (!normalized.ok) return normalized;
    value = normalized.value;
  }
  const written: number[] = [];
  if (matched.length === 0 && req.op !== 'remove' && !isUnassigned(value)) {
    const created = createMissing(ctx, target, attribute, req, (base) => withKeys(base, { [sub.name]: value }));
    if (!created.ok) return created;
    written.push(elements.push(created.value) - 1);
  }
  for (const i of matched) {
    const old = elements[i];
    if (!isJsonObject(old)) continue;
    const existing = findKey(old, sub.name);
    const key = existing ?? sub.name;
    const previous = existing === undefined ? undefined : old[existing];
    const next = req.op === 'remove' || isUnassigned(value) ? undefined : cloneJson(value);
    if (req.op === 'add' && isUnassigned(next)) continue;
    const checked = checkMutability(sub, name, previous, next, req.at);
    if (!checked.ok) return checked;
    written.push(i);
    // Writing the value the element already has changes nothing: keep the element, copy nothing.
    if (existing !== undefined ? jsonEqual(previous, next) : next === undefined) continue;
    const element = copyObject(old);
    if (next === undefined) delete element[key];
    else element[key] = next;
    elements[i] = element;
  }
  const primary = enforcePrimary(attribute, elements, written, req.at, ctx.budget);
  return primary.ok ? ok(elements) : primary;
}

/** `base` with the keys of `more` written over it (as `{ ...base, ...more }`), in a new object. */
function withKeys(base: JsonObject, more: JsonObject): JsonObject {
  const out = copyObject(base);
  for (const key of Object.keys(more)) setOwn(out, key, more[key]);
  return out;
}

/**
 * A new element for a value path that matched nothing, or 400 noTarget. `add` creates it (RFC 7644
 * §3.5.2.1: a target that does not exist is added; docs/concepts/patch.md); `replace` answers noTarget
 * (RFC 7644 §3.5.2.3) unless `createMissingValuePath` is on.
 */
function createMissing(
  ctx: PatchContext,
  target: ElementsTarget,
  attribute: AttributeDefinition,
  req: WriteRequest,
  build: (base: JsonObject) => JsonObject | undefined,
): Result<JsonObject> {
  const filter = target.filter;
  const create = req.op === 'add' || ctx.options.createMissingValuePath;
  const base = create && filter !== undefined ? elementFromFilter(filter, attribute) : undefined;
  const element = base === undefined ? undefined : build(base);
  if (element !== undefined) return ok(element);
  const selection = filter === undefined ? attribute.name : `${attribute.name}[${printFilter(filter)}]`;
  return err(scimError('noTarget', `${req.at}: no value matches "${selection}" (RFC 7644 §3.5.2)`));
}
