import type { Result } from '../errors/result.js';
import { err, ok } from '../errors/result.js';
import type { ScimError } from '../errors/scim-error.js';
import { scimError } from '../errors/scim-error.js';
import type { AttributeDefinition, SchemaDefinition } from './attribute-definition.js';
import { checkSchemasValue } from './check-schemas-value.js';
import { missingExtension } from './missing-extension.js';
import { settleMember } from './settle-member.js';
import { PatchBaselines } from './patch-baseline.js';
import type { ResourceModel } from './resource-model.js';
import type { ScimResource } from './scim-resource.js';
import { topLevelAttributes } from './top-level-attributes.js';
import { validatePatched } from './validate-patched.js';
import { isJsonObject, validateMembers } from './validate-attribute-value.js';
import type { ValueRules } from './validate-attribute-value.js';
import type { ValidationContext, ValidationOptions } from './validation-options.js';
import { memoOf } from './model-memo.js';
import { validationPlan } from './validation-plan.js';

/** One schema of the resource type with the input gathered for it. */
interface Part {
  readonly schema: SchemaDefinition;
  readonly extension: boolean;
  readonly required: boolean;
  readonly attributes: readonly AttributeDefinition[];
  /** Input members by their key (or attribute name, for URN-qualified keys); null prototype. */
  readonly input: Record<string, unknown>;
  /** Attributes already given, to reject the same attribute given twice under two spellings. */
  readonly given: Set<AttributeDefinition>;
}

/**
 * Validate and normalize a resource body against its resource type (RFC 7643 §2, §3; RFC 7644 §3.3,
 * §3.5). Returns the resource in schema spelling and order: `schemas` (the core URN, then every
 * extension that has data), core attributes, extensions under their URN key. Unassigned values are
 * dropped (RFC 7643 §2.5). For `create` and `replace` readOnly input is ignored and no `id`/`meta` is
 * returned (the server assigns them); for `patch` they are kept from `existing`.
 * Errors: 400 invalidSyntax when the body is not a JSON object; 400 invalidValue naming the attribute
 * path for anything else; 400 mutability for a changed immutable attribute.
 */
export function validateResource(
  model: ResourceModel,
  input: unknown,
  context: ValidationContext,
  options: ValidationOptions = {},
): Result<Record<string, unknown>> {
  if (!isJsonObject(input)) return err(scimError('invalidSyntax', 'The resource must be a JSON object'));
  const operation = context.operation;
  const existing = operation === 'create' ? undefined : context.existing;
  const baselines = context.operation === 'patch' && context.touched !== undefined ? new PatchBaselines(context.touched, context.changes) : undefined;
  const rules: ValueRules = {
    dropReadOnly: operation !== 'patch',
    unknownAttributes: options.unknownAttributes ?? 'reject',
    onIgnored: options.onIgnored,
    stringBooleans: options.stringBooleans ?? true,
    memo: memoOf(model),
  };

  if (baselines !== undefined && existing !== undefined && context.operation === 'patch' && context.touched !== undefined) {
    const fast = validatePatched(model, input, existing, context.touched, baselines, rules);
    if (fast !== undefined) return fast;
  }

  const plan = validationPlan(model);
  const core = newPart(model.core, false, false, topLevelAttributes(model));
  const extensions = model.extensions.map((e) => newPart(e.schema, true, e.required, e.schema.attributes));
  const partOf = (lowerUrn: string): Part | undefined => {
    const index = plan.extensionByUrn.get(lowerUrn);
    return index === undefined ? undefined : extensions[index];
  };

  // 1. Sort the input's keys: `schemas`, extension objects under their URN, attributes (maybe URN-qualified).
  let schemas: unknown;
  let schemasKey: string | undefined;
  for (const key of Object.keys(input)) {
    const value = input[key];
    const lower = key.toLowerCase();
    if (lower === 'schemas') {
      if (schemasKey !== undefined) return err(scimError('invalidValue', "Attribute 'schemas' is given more than once"));
      schemasKey = key;
      schemas = value;
      continue;
    }
    const extension = partOf(lower);
    if (extension !== undefined) {
      // RFC 7643 §3.3: extension attributes live in an object under the extension's URN.
      if (value === null) continue;
      if (!isJsonObject(value)) return err(scimError('invalidValue', `Attribute '${extension.schema.id}' must be a JSON object`));
      for (const member of Object.keys(value)) {
        // `schemas` is an attribute of the resource (RFC 7643 §3), not of an extension; some clients
        // (Python's scim2-models) repeat it inside the extension's object: accepted and dropped.
        if (member.toLowerCase() === 'schemas') continue;
        const added = addMember(extension, member, value[member]);
        if (added !== undefined) return err(added);
      }
      continue;
    }
    // Unqualified names are core attributes; `urn:…:attr` may name a core or an extension attribute.
    const resolved = plan.coreByName.get(key) ?? (key.includes(':') ? model.resolve({ attr: key }) : model.resolve({ uri: model.core.id, attr: key }));
    if (resolved === undefined || resolved.subAttribute !== undefined) {
      if (rules.unknownAttributes === 'reject') return err(scimError('invalidValue', `Unknown attribute '${key}'`));
      rules.onIgnored?.(key);
      continue;
    }
    const part = resolved.extension ? partOf(resolved.schema.toLowerCase()) : core;
    if (part === undefined) continue;
    const added = addMember(part, resolved.attribute.name, value, resolved.attribute);
    if (added !== undefined) return err(added);
  }

  // 2. `schemas` (RFC 7643 §3).
  const listed = checkSchemasValue(model, schemas, rules.unknownAttributes === 'reject');
  if (listed !== undefined) return err(listed);

  // 3. Values, schema by schema.
  const values = new Map<Part, Record<string, unknown>>();
  for (const part of [core, ...extensions]) {
    const stored = existing === undefined ? undefined : storedPart(existing, part);
    const baseline = baselines?.of(stored, part.extension ? part.schema.id : undefined);
    const checked = validateMembers(part.attributes, part.input, prefixOf(part), rules, part === core, baseline);
    if (!checked.ok) return checked;
    const record: Record<string, unknown> = checked.value ?? {};
    const settled = settleWithStored(part, record, stored, operation, baselines !== undefined);
    if (typeof settled === 'object') return err(settled);
    // validateMembers answers in schema order; only a value the settling added can be out of it.
    if (Object.keys(record).length > 0) values.set(part, settled === 'added' ? inSchemaOrder(part.attributes, record) : record);
    else if (part.required) {
      return err(missingExtension(model, part.schema));
    }
  }

  // 4. Output: schemas, id, externalId, core attributes, extensions, meta.
  const out: Record<string, unknown> = {
    schemas: [model.core.id, ...extensions.filter((part) => values.has(part)).map((part) => part.schema.id)],
  };
  const coreValues = values.get(core) ?? {};
  for (const attribute of core.attributes) {
    const value = own(coreValues, attribute.name);
    if (attribute.name !== 'meta' && value !== undefined) out[attribute.name] = value;
  }
  for (const part of extensions) {
    const value = values.get(part);
    if (value !== undefined) out[part.schema.id] = value;
  }
  const meta = own(coreValues, 'meta');
  if (meta !== undefined) out['meta'] = meta;
  return ok(out);
}

/**
 * Reconcile the validated input of one schema with the stored resource, in place, by the stored
 * rules (see settleMember: readOnly, writeOnly, immutable). With `shareStored` (an incremental PATCH
 * validation), stored values are kept without a copy. The error, or whether a member was added
 * (`added`: the record may no longer be in schema order) or only kept, changed or removed.
 */
function settleWithStored(
  part: Part,
  record: Record<string, unknown>,
  stored: Record<string, unknown> | undefined,
  operation: ValidationContext['operation'],
  shareStored: boolean,
): ScimError | 'added' | 'kept' {
  let added = false;
  if (operation === 'create') {
    // settleMember on create: a readOnly value is dropped, any other kept as it is (no allocation per attribute).
    for (const attribute of part.attributes) if (attribute.mutability === 'readOnly' && own(record, attribute.name) !== undefined) delete record[attribute.name];
    return 'kept';
  }
  const prefix = prefixOf(part);
  for (const attribute of part.attributes) {
    const name = attribute.name;
    const value = own(record, name);
    const settled = settleMember(attribute, value, stored, prefix, operation, shareStored);
    if (!settled.ok) return settled.error;
    if (settled.value === value) continue;
    if (settled.value === undefined) delete record[name];
    else {
      if (value === undefined) added = true;
      record[name] = settled.value;
    }
  }
  return added ? 'added' : 'kept';
}

function newPart(schema: SchemaDefinition, extension: boolean, required: boolean, attributes: readonly AttributeDefinition[]): Part {
  return { schema, extension, required, attributes, input: Object.create(null) as Record<string, unknown>, given: new Set() };
}

/** Record one input member of a part; an attribute given twice (two spellings) is an error. */
function addMember(part: Part, key: string, value: unknown, attribute?: AttributeDefinition) {
  const definition = attribute ?? findAttribute(part.attributes, key);
  if (definition !== undefined) {
    // readOnly top-level input never counts: requests cannot set it, a PATCH result keeps the stored value.
    if (definition.mutability === 'readOnly') return undefined;
    if (part.given.has(definition)) return scimError('invalidValue', `Attribute '${prefixOf(part) + definition.name}' is given more than once`);
    part.given.add(definition);
  }
  part.input[key] = value;
  return undefined;
}

/** The attribute named `key` (RFC 7643 §2.1: case-insensitively), the schema's spelling tried first. */
function findAttribute(attributes: readonly AttributeDefinition[], key: string): AttributeDefinition | undefined {
  for (const a of attributes) if (a.name === key) return a;
  const lower = key.toLowerCase();
  return attributes.find((a) => a.name.toLowerCase() === lower);
}

/** What precedes a member's name in error paths: nothing for the core, `urn:…:` for an extension. */
function prefixOf(part: Part): string {
  return part.extension ? `${part.schema.id}:` : '';
}

function storedPart(existing: ScimResource, part: Part): Record<string, unknown> | undefined {
  if (!part.extension) return existing;
  const lower = part.schema.id.toLowerCase();
  const key = Object.keys(existing).find((k) => k.toLowerCase() === lower);
  const value = key === undefined ? undefined : existing[key];
  return isJsonObject(value) ? value : undefined;
}

function inSchemaOrder(attributes: readonly AttributeDefinition[], record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const attribute of attributes) {
    const value = own(record, attribute.name);
    if (value !== undefined) out[attribute.name] = value;
  }
  return out;
}

function own(object: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}
