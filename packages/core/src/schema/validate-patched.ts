import type { Result } from '../errors/result.js';
import { err, ok } from '../errors/result.js';
import type { AttributeDefinition, SchemaDefinition } from './attribute-definition.js';
import { checkSchemasValue } from './check-schemas-value.js';
import { keepImmutable } from './keep-immutable.js';
import type { MemberBaseline } from './patch-baseline.js';
import type { ResourceModel } from './resource-model.js';
import type { ScimResource } from './scim-resource.js';
import { topLevelAttributes } from './top-level-attributes.js';
import { checkRequired, isJsonObject, validateAttributeValue, validateMembers, type ValueRules } from './validate-attribute-value.js';

/**
 * The fast path of `validateResource` for a PATCH result from `applyPatch` (RFC 7644 §3.5.2):
 * only the top-level keys in `touched` are validated; every other key must hold the stored value
 * itself. It answers exactly as the whole validation would (same checks in the same order, on the
 * values that can differ), and returns undefined when the input is not shaped for it (a key not in
 * the schema's spelling, a stored key neither kept nor touched, …): the caller then validates the
 * whole resource.
 */
export function validatePatched(
  model: ResourceModel,
  input: Record<string, unknown>,
  existing: ScimResource,
  touched: ReadonlySet<string>,
  baselines: (stored: Record<string, unknown> | undefined, urn: string | undefined) => MemberBaseline | undefined,
  rules: ValueRules,
): Result<Record<string, unknown>> | undefined {
  const attributes = topLevelAttributes(model);
  const core = coreByName(model, attributes);
  for (const key of Object.keys(input)) {
    if (key !== 'schemas' && !core.has(key) && !model.extensions.some((e) => e.schema.id === key)) return undefined;
    if (!touched.has(key) && key !== 'schemas' && own(existing, key) !== input[key]) return undefined;
  }
  for (const key of Object.keys(existing)) if (!touched.has(key) && key !== 'schemas' && !Object.prototype.hasOwnProperty.call(input, key)) return undefined;
  // A touched extension must be an object whose members are that extension's, spelled as it spells them.
  for (const { schema } of model.extensions) {
    const value = own(input, schema.id);
    if (!touched.has(schema.id) || value === undefined || value === null) continue;
    if (!isJsonObject(value) || Object.keys(value).some((k) => !schema.attributes.some((a) => a.name === k))) return undefined;
  }

  // `schemas` (RFC 7643 §3).
  const listed = checkSchemasValue(model, own(input, 'schemas'), rules.unknownAttributes === 'reject');
  if (listed !== undefined) return err(listed);

  // Core attributes: validate the touched ones in input order, then `required`, then the stored rules.
  const values = new Map<string, unknown>();
  const baseline = baselines(existing, undefined);
  for (const key of Object.keys(input)) {
    const attribute = core.get(key);
    if (attribute === undefined || attribute.mutability === 'readOnly') continue;
    const value = input[key];
    if (!touched.has(key)) {
      if (value !== null && value !== undefined) values.set(key, value);
      continue;
    }
    const kept = baseline !== undefined && attribute.multiValued && Array.isArray(value) ? baseline.kept(key, key, value) : 0;
    const checked = validateAttributeValue(attribute, value, key, rules, kept);
    if (!checked.ok) return checked;
    if (checked.value !== undefined) values.set(key, checked.value);
  }
  const missing = checkRequired(attributes, (a) => values.get(a.name), (name) => name);
  if (missing !== undefined) return err(missing);
  const settled = settle(attributes, values, existing, (name) => touched.has(name), (name) => name);
  if (settled !== undefined) return err(settled);

  // Extensions, in the resource type's order.
  const extensions = new Map<string, unknown>();
  for (const { schema, required } of model.extensions) {
    const value = own(input, schema.id);
    const stored = own(existing, schema.id);
    let record: Record<string, unknown> | undefined;
    if (!touched.has(schema.id)) record = isJsonObject(value) ? value : undefined;
    else if (isJsonObject(value)) {
      const checked = validateExtension(schema, value, isJsonObject(stored) ? stored : undefined, baselines, rules);
      if (!checked.ok) return checked;
      record = checked.value;
    }
    if (record !== undefined) extensions.set(schema.id, record);
    else if (required) {
      // RFC 7643 §6 schemaExtensions.required: the resource MUST include the extension.
      return err({ status: 400, scimType: 'invalidValue', detail: `Schema extension '${schema.id}' is required for resource type '${model.definition.name}'` });
    }
  }

  // Output: schemas, id, externalId, core attributes, extensions, meta (as validateResource).
  const out: Record<string, unknown> = { schemas: [model.core.id, ...extensions.keys()] };
  for (const attribute of attributes) {
    const value = values.get(attribute.name);
    if (attribute.name !== 'meta' && value !== undefined) out[attribute.name] = value;
  }
  for (const [urn, value] of extensions) out[urn] = value;
  const meta = values.get('meta');
  if (meta !== undefined) out['meta'] = meta;
  return ok(out);
}

/** A touched extension object: its members (readOnly ones are the stored ones), as a whole. */
function validateExtension(
  schema: SchemaDefinition,
  value: Record<string, unknown>,
  stored: Record<string, unknown> | undefined,
  baselines: (stored: Record<string, unknown> | undefined, urn: string | undefined) => MemberBaseline | undefined,
  rules: ValueRules,
): Result<Record<string, unknown> | undefined> {
  const input: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    const attribute = schema.attributes.find((a) => a.name === key);
    if (attribute !== undefined && attribute.mutability !== 'readOnly') input[key] = value[key];
  }
  const pathOf = (name: string): string => `${schema.id}:${name}`;
  const checked = validateMembers(schema.attributes, input, pathOf, rules, false, baselines(stored, schema.id));
  if (!checked.ok) return checked;
  const values = new Map<string, unknown>(Object.entries(checked.value ?? {}));
  const settled = settle(schema.attributes, values, stored, (name) => own(value, name) !== own(stored ?? {}, name), pathOf);
  if (settled !== undefined) return err(settled);
  if (values.size === 0) return ok(undefined);
  const out: Record<string, unknown> = {};
  for (const attribute of schema.attributes) {
    const v = values.get(attribute.name);
    if (v !== undefined) out[attribute.name] = v;
  }
  return ok(out);
}

/**
 * The stored rules, in attribute order, on `values` (by attribute name): readOnly values are the
 * stored ones; an immutable value that changed is 400 mutability (RFC 7644 §3.5.2). Only the
 * attributes `written` says the PATCH wrote can have changed.
 */
function settle(
  attributes: readonly AttributeDefinition[],
  values: Map<string, unknown>,
  stored: Record<string, unknown> | undefined,
  written: (name: string) => boolean,
  pathOf: (name: string) => string,
) {
  for (const attribute of attributes) {
    const name = attribute.name;
    const previous = stored === undefined ? undefined : own(stored, name);
    if (attribute.mutability === 'readOnly') {
      values.delete(name);
      if (previous !== undefined && previous !== null) values.set(name, previous);
    } else if (stored !== undefined && written(name)) {
      const kept = keepImmutable(attribute, values.get(name), previous, pathOf(name), 'patch');
      if (!kept.ok) return kept.error;
      if (kept.value === undefined) values.delete(name);
      else values.set(name, kept.value);
    }
  }
  return undefined;
}

const indexes = new WeakMap<ResourceModel, ReadonlyMap<string, AttributeDefinition>>();

/** The top-level core attributes by their exact (schema) name, derived once per model. */
function coreByName(model: ResourceModel, attributes: readonly AttributeDefinition[]): ReadonlyMap<string, AttributeDefinition> {
  let index = indexes.get(model);
  if (index === undefined) {
    index = new Map(attributes.map((a) => [a.name, a]));
    indexes.set(model, index);
  }
  return index;
}

function own(object: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}
