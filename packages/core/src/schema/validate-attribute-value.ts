import type { Result } from '../errors/result.js';
import { err, ok } from '../errors/result.js';
import type { ScimError } from '../errors/scim-error.js';
import { scimError } from '../errors/scim-error.js';
import type { AttributeDefinition } from './attribute-definition.js';
import { checkSimpleValue } from './check-simple-value.js';
import type { MemberBaseline } from './patch-baseline.js';

/** How values are validated: shared by every attribute of one `validateResource` call. */
export interface ValueRules {
  /** Drop readOnly sub-attributes from input (create and replace requests; RFC 7644 §3.3, §3.5.1). */
  readonly dropReadOnly: boolean;
  readonly unknownAttributes: 'reject' | 'ignore';
  readonly stringBooleans: boolean;
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Validate and normalize the value of one attribute. `ok(undefined)` means unassigned: null, an empty
 * array, or a complex value with nothing left in it (RFC 7643 §2.5), to be dropped.
 */
export function validateAttributeValue(attribute: AttributeDefinition, value: unknown, path: string, rules: ValueRules, kept = 0): Result<unknown> {
  if (value === null || value === undefined) return ok(undefined);
  if (!attribute.multiValued) return validateSingleValue(attribute, value, path, rules);
  // RFC 7643 §2.4: a multi-valued attribute is a JSON array.
  if (!Array.isArray(value)) return err(scimError('invalidValue', `Attribute '${path}' is multi-valued and must be an array`));
  // The first `kept` elements are stored ones a PATCH kept (see MemberBaseline): already valid.
  // All of them (a member removed): the array is the patched one, already private, used as is.
  if (kept > 0 && kept === value.length) return ok(value);
  const checkedValues: unknown[] = [];
  // Whether the checked elements are the given ones as they are (same members in the same order).
  let same = true;
  let primaries = 0;
  for (let i = kept; i < value.length; i++) {
    const checked = validateSingleValue(attribute, value[i], `${path}[${i}]`, rules);
    if (!checked.ok) return checked;
    if (checked.value === undefined) {
      same = false;
      continue;
    }
    if (attribute.type === 'complex' && (checked.value as Record<string, unknown>)['primary'] === true) primaries++;
    same &&= sameMembers(checked.value, value[i]);
    checkedValues.push(checked.value);
  }
  if (primaries > 0 && attribute.type === 'complex') for (let i = 0; i < kept; i++) if ((value[i] as Record<string, unknown>)['primary'] === true) primaries++;
  // RFC 7643 §2.4: the primary attribute value "true" MUST appear no more than once.
  if (primaries > 1) return err(scimError('invalidValue', `Attribute '${path}' has more than one value with 'primary' true`));
  // The kept elements follow a PATCH: the array is the patched one, private, used as is when the
  // checked elements came out as given (no copy of a 100,000-member group).
  if (kept > 0 && same) return ok(value);
  const values = kept > 0 ? value.slice(0, kept).concat(checkedValues) : checkedValues;
  return ok(values.length > 0 ? values : undefined);
}

/** Whether the checked value `a` says what `b` says in the same shape: simple values equal, objects with the same keys in the same order. */
function sameMembers(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (key !== others[i] || !sameMembers(a[key], b[key])) return false;
  }
  return true;
}

function validateSingleValue(attribute: AttributeDefinition, value: unknown, path: string, rules: ValueRules): Result<unknown> {
  if (value === null || value === undefined) return ok(undefined);
  if (attribute.type !== 'complex') return checkSimpleValue(attribute, value, path, rules.stringBooleans);
  if (!isJsonObject(value)) return err(scimError('invalidValue', `Attribute '${path}' must be a JSON object`));
  return validateMembers(attribute.subAttributes ?? NONE, value, (name) => `${path}.${name}`, rules);
}

/**
 * Validate the members of a JSON object against attribute definitions (sub-attributes of a complex
 * value, the attributes of a schema extension, or a resource's core attributes). Names match
 * case-insensitively and come out in the schema's spelling and order. Required members are enforced
 * when the object has a value, or always when `requireAll` is set (the resource itself). With a
 * `baseline` (a PATCH result), stored values the PATCH left as they were are not checked again.
 */
export function validateMembers(
  attributes: readonly AttributeDefinition[],
  object: Record<string, unknown>,
  pathOf: (name: string) => string,
  rules: ValueRules,
  requireAll = false,
  baseline?: MemberBaseline,
): Result<Record<string, unknown> | undefined> {
  const found = new Map<AttributeDefinition, unknown>();
  const seen = new Set<AttributeDefinition>();
  for (const key of Object.keys(object)) {
    const names = byName(attributes);
    const attribute = names.get(key) ?? names.get(key.toLowerCase());
    if (attribute === undefined) {
      if (rules.unknownAttributes === 'reject') return err(scimError('invalidValue', `Unknown attribute '${pathOf(key)}'`));
      continue;
    }
    if (seen.has(attribute)) return err(scimError('invalidValue', `Attribute '${pathOf(attribute.name)}' is given more than once`));
    seen.add(attribute);
    if (rules.dropReadOnly && attribute.mutability === 'readOnly') continue;
    const value = object[key];
    if (baseline?.unchanged(key, value) === true) {
      found.set(attribute, value);
      continue;
    }
    const path = pathOf(attribute.name);
    const kept = baseline !== undefined && attribute.multiValued && Array.isArray(value) ? baseline.kept(key, path, value) : 0;
    const checked = validateAttributeValue(attribute, value, path, rules, kept);
    if (!checked.ok) return checked;
    if (checked.value !== undefined) found.set(attribute, checked.value);
  }
  if (found.size === 0 && !requireAll) return ok(undefined);
  const missing = checkRequired(attributes, (a) => found.get(a), pathOf);
  if (missing !== undefined) return err(missing);
  if (found.size === 0) return ok(undefined);
  const out: Record<string, unknown> = {};
  for (const attribute of attributes) {
    const value = found.get(attribute);
    if (value !== undefined) out[attribute.name] = value;
  }
  return ok(out);
}

/** RFC 7643 §2.2 `required`: the first required attribute without a (non-empty) value, as an error. */
export function checkRequired(
  attributes: readonly AttributeDefinition[],
  valueOf: (attribute: AttributeDefinition) => unknown,
  pathOf: (name: string) => string,
): ScimError | undefined {
  for (const attribute of attributes) {
    // readOnly attributes (id, meta, …) are the service provider's to assign, never the client's.
    if (!attribute.required || attribute.mutability === 'readOnly') continue;
    const value = valueOf(attribute);
    if (value === undefined) return scimError('invalidValue', `Attribute '${pathOf(attribute.name)}' is required`);
    if (value === '') return scimError('invalidValue', `Attribute '${pathOf(attribute.name)}' is required and must not be empty`);
  }
  return undefined;
}

const NONE: readonly AttributeDefinition[] = [];

/** Attribute definitions by lower-case name, derived once per (immutable) list. */
const indexes = new WeakMap<readonly AttributeDefinition[], ReadonlyMap<string, AttributeDefinition>>();

function byName(attributes: readonly AttributeDefinition[]): ReadonlyMap<string, AttributeDefinition> {
  let index = indexes.get(attributes);
  if (index === undefined) {
    // Lower-cased names (RFC 7643 §2.1: names are case-insensitive), plus each schema spelling
    // as it is, so the usual key is found without lower-casing it.
    const map = new Map<string, AttributeDefinition>();
    for (const attribute of attributes) {
      const lower = attribute.name.toLowerCase();
      if (!map.has(lower)) map.set(lower, attribute);
    }
    for (const attribute of attributes) if (map.get(attribute.name.toLowerCase()) === attribute) map.set(attribute.name, attribute);
    index = map;
    indexes.set(attributes, index);
  }
  return index;
}
