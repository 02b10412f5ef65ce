import type { AttributeDefinition } from '../../schema/attribute-definition.js';
import { memoOf } from '../../schema/model-memo.js';
import type { ResolvedAttribute, ResourceModel } from '../../schema/resource-model.js';
import { validateAttributeValue, type ValueRules } from '../../schema/validate-attribute-value.js';
import type { ValidationOptions } from '../../schema/validation-options.js';
import { normalizeElement } from '../../patch/normalize-value.js';
import { parsePatchRequest } from '../../patch/parse-patch-request.js';
import { resolvePatchOptions, type PatchOptions, type ResolvedPatchOptions } from '../../patch/patch-options.js';
import { resolvePatchTarget } from '../../patch/resolve-patch-target.js';
import { operationAt } from '../../patch/operation-at.js';
import { findSubAttribute, isJsonObject } from '../../values/index.js';
import type { AssignedValue, StoreAssignment } from '../../store/scim-store.js';

type Values = Record<string, AssignedValue | Record<string, AssignedValue>>;

/** What a plan reads: the resource type, the PATCH engine's options, and the validation's. */
interface Planning {
  readonly model: ResourceModel;
  readonly options: ResolvedPatchOptions;
  readonly rules: ValueRules;
}

/**
 * The values a PATCH request body sets (RFC 7644 §3.5.2) when the core can decide them without the
 * stored resource, for `ScimStore.assign`; undefined when it cannot, and the PATCH then takes the
 * read path (which also answers every error). It can when every operation is an `add` or `replace`
 * (on a singular attribute both set the value, RFC 7644 §3.5.2.1, §3.5.2.3) with a value that
 * validates, of:
 * - a singular simple attribute of the core schema, by path or as a key of a path-less value;
 * - a sub-attribute of a singular complex attribute (`name.givenName`), by path, or as a key of the
 *   attribute's object value (`replace` of `name` merges: the sub-attributes not given are kept);
 * each one writable (`readWrite` or `writeOnly`, RFC 7643 §2.2), not unique, not `returned:
 * "request"`; a required one never set to `""`; a complex one without required sub-attributes
 * (the object may not exist yet). Never `null` (it removes), a value filter, a multi-valued
 * attribute, an extension (its URN would join `schemas`), `schemas`, an ignored or unknown path.
 * Later operations win, as they are applied in order. The values are the validated ones (string
 * booleans read, as the engine reads them).
 */
export function planAssignment(model: ResourceModel, body: unknown, patch: PatchOptions, validation: ValidationOptions): StoreAssignment['values'] | undefined {
  const options = resolvePatchOptions(patch);
  const operations = parsePatchRequest(body, options);
  if (!operations.ok || operations.value.length === 0) return undefined;
  const planning: Planning = {
    model,
    options,
    rules: { dropReadOnly: false, unknownAttributes: validation.unknownAttributes ?? 'reject', stringBooleans: validation.stringBooleans ?? true, memo: memoOf(model) },
  };
  const values: Values = {};
  for (const operation of operations.value) {
    if (operation.op === 'remove' || !operation.hasValue || operation.value === null) return undefined;
    if (operation.path === undefined) {
      if (!pathless(planning, operation.value, values)) return undefined;
      continue;
    }
    const target = resolvePatchTarget(model, operation.path, options, operationAt(operation.index));
    if (!target.ok || target.value.kind !== 'attribute' || !assign(planning, target.value.resolved, operation.value, values)) return undefined;
  }
  return values;
}

/** A path-less value: each key an attribute name (no paths, no URNs), assigned as if it were the path. */
function pathless(planning: Planning, value: unknown, values: Values): boolean {
  if (!isJsonObject(value)) return false;
  const keys = Object.keys(value);
  if (keys.length === 0) return false;
  for (const key of keys) {
    if (key.includes('.') || key.includes(':') || key.toLowerCase() === 'schemas') return false;
    const resolved = planning.model.resolve({ attr: key });
    if (resolved === undefined || !assign(planning, resolved, value[key], values)) return false;
  }
  return true;
}

/** Adds the assignment of `raw` to `resolved` to `values`; false when it is not one (see planAssignment). */
function assign(planning: Planning, resolved: ResolvedAttribute, raw: unknown, values: Values): boolean {
  const { attribute, subAttribute } = resolved;
  if (resolved.extension || !writable(attribute) || planning.model.unique.some((unique) => unique.path === attribute.name)) return false;
  if (subAttribute === undefined && attribute.type !== 'complex') {
    const value = simpleValue(planning, attribute, raw, attribute.name);
    if (value === undefined) return false;
    values[attribute.name] = value;
    return true;
  }
  if (attribute.type !== 'complex' || (attribute.subAttributes ?? []).some((sub) => sub.required || sub.returned === 'request')) return false;
  const current = values[attribute.name];
  const subs: Record<string, AssignedValue> = typeof current === 'object' ? current : {};
  if (subAttribute !== undefined) {
    if (!addSub(planning, attribute, subAttribute, raw, subs)) return false;
  } else {
    if (!isJsonObject(raw)) return false;
    const keys = Object.keys(raw);
    if (keys.length === 0) return false;
    for (const key of keys) {
      const sub = findSubAttribute(attribute, key);
      if (sub === undefined || !addSub(planning, attribute, sub, raw[key], subs)) return false;
    }
  }
  values[attribute.name] = subs;
  return true;
}

function addSub(planning: Planning, parent: AttributeDefinition, sub: AttributeDefinition, raw: unknown, subs: Record<string, AssignedValue>): boolean {
  if (sub.type === 'complex' || !writable(sub)) return false;
  const value = simpleValue(planning, sub, raw, `${parent.name}.${sub.name}`);
  if (value === undefined) return false;
  subs[sub.name] = value;
  return true;
}

/** The validated value of a simple attribute, as the engine then the validation make it; undefined when it is none. */
function simpleValue(planning: Planning, definition: AttributeDefinition, raw: unknown, path: string): AssignedValue | undefined {
  if (raw === null || raw === undefined) return undefined;
  const normalized = normalizeElement(definition, raw, planning.options, path);
  if (!normalized.ok) return undefined;
  const checked = validateAttributeValue(definition, normalized.value, path, planning.rules);
  if (!checked.ok) return undefined;
  const value = checked.value;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
  // RFC 7643 §2.2: a required attribute must not be empty (requiredProblem).
  if (value === '' && definition.required) return undefined;
  return value;
}

/** Singular, writable by a client (RFC 7643 §2.2), not unique, and not returned only when sent. */
function writable(definition: AttributeDefinition): boolean {
  return (
    !definition.multiValued &&
    (definition.mutability === 'readWrite' || definition.mutability === 'writeOnly') &&
    definition.uniqueness === 'none' &&
    definition.returned !== 'request'
  );
}
