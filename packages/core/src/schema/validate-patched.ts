import type { Result } from '../errors/result.js';
import { err, ok } from '../errors/result.js';
import type { ScimError } from '../errors/scim-error.js';
import type { AttributeDefinition } from './attribute-definition.js';
import { checkSchemasValue } from './check-schemas-value.js';
import type { MemberBaseline, PatchBaselines } from './patch-baseline.js';
import type { ResourceModel } from './resource-model.js';
import type { ScimResource } from './scim-resource.js';
import { modelLayout, type LayoutAttribute, type LayoutExtension, type ModelLayout } from './model-layout.js';
import { missingExtension } from './missing-extension.js';
import { settleMember } from './settle-member.js';
import { isJsonObject, requiredProblem, validateAttributeValue, validateMembers, type ValueRules } from './validate-attribute-value.js';

/** One PATCH result to validate, and what it is validated against. */
interface Patched {
  readonly layout: ModelLayout;
  readonly input: Record<string, unknown>;
  readonly existing: ScimResource;
  readonly touched: ReadonlySet<string>;
  readonly baselines: PatchBaselines;
  readonly rules: ValueRules;
}

/**
 * The fast path of `validateResource` for a PATCH result from `applyPatch` (RFC 7644 §3.5.2):
 * only the top-level keys in `touched` are validated; every other key must hold the stored value
 * itself. It answers exactly as the whole validation would (the same rules, `validateAttributeValue`,
 * `requiredProblem` and `settleMember`, in the same order, on the values that can differ), and returns
 * undefined when the input is not shaped for it (a key not in the schema's spelling, a stored key
 * neither kept nor touched, …): the caller then validates the whole resource.
 */
export function validatePatched(
  model: ResourceModel,
  input: Record<string, unknown>,
  existing: ScimResource,
  touched: ReadonlySet<string>,
  baselines: PatchBaselines,
  rules: ValueRules,
): Result<Record<string, unknown>> | undefined {
  const patched: Patched = { layout: modelLayout(model), input, existing, touched, baselines, rules };
  const scan = scanPatched(patched);
  const written = scan === undefined ? undefined : touchedCore(patched);
  if (scan === undefined || written === undefined) return undefined;

  // `schemas` (RFC 7643 §3), then the core attributes, then the extensions, as validateResource.
  const listed = checkSchemasValue(model, own(input, 'schemas'), rules.unknownAttributes === 'reject');
  if (listed !== undefined) return err(listed);
  const values = new Map<string, unknown>();
  const coreProblem = validateCore(patched, scan, written, values);
  if (coreProblem !== undefined) return err(coreProblem);
  const schemas = [model.core.id];
  const records: Record<string, unknown>[] = [];
  const extensionProblem = validateExtensions(model, patched, schemas, records);
  if (extensionProblem !== undefined) return err(extensionProblem);

  // Output: schemas, id, externalId, core attributes, extensions, meta (as validateResource).
  const out = inputOrder(scan, values, schemas, written.readOnly) ?? schemaOrder(patched, values, schemas);
  for (let i = 0; i < records.length; i++) out[schemas[i + 1] as string] = records[i];
  const meta = patched.layout.byName.get('meta');
  const metaValue = meta === undefined ? undefined : memberValue(patched, meta.attribute, values);
  if (metaValue !== undefined && metaValue !== null) out['meta'] = metaValue;
  return ok(out);
}

/**
 * The touched core attributes, validated in input order, then `required` checked, then the stored
 * rules applied in attribute order. Untouched members are the stored values themselves (see
 * scanPatched), valid as they are. The validated values go to `values`, by name; the first problem is returned.
 */
function validateCore(patched: Patched, scan: Scan, written: TouchedCore, values: Map<string, unknown>): ScimError | undefined {
  const { layout, input, existing, touched, baselines, rules } = patched;
  let baseline: MemberBaseline | undefined;
  for (const key of scan.written) {
    const attribute = (layout.byName.get(key) as LayoutAttribute).attribute;
    if (attribute.mutability === 'readOnly') continue;
    const value = input[key];
    let kept = 0;
    if (attribute.multiValued && Array.isArray(value)) {
      baseline ??= baselines.of(existing, undefined);
      if (baseline !== undefined) kept = baseline.kept(key, key, value);
    }
    const checked = validateAttributeValue(attribute, value, key, rules, kept);
    if (!checked.ok) return checked.error;
    if (checked.value !== undefined) values.set(key, checked.value);
  }
  for (const attribute of layout.required) {
    const name = attribute.name;
    const value = touched.has(name) ? values.get(name) : own(input, name);
    const missing = requiredProblem(attribute, value === null ? undefined : value, '');
    if (missing !== undefined) return missing;
  }
  // RFC 7644 §3.5.2: an immutable value the PATCH changed is 400 mutability (in attribute order).
  for (const attribute of written.attributes) {
    const settled = settleMember(attribute, values.get(attribute.name), existing, '', 'patch', true);
    if (!settled.ok) return settled.error;
    if (settled.value === undefined) values.delete(attribute.name);
    else values.set(attribute.name, settled.value);
  }
  return undefined;
}

/**
 * The extensions, in the resource type's order: the URNs (to `schemas`, after the core's) and records
 * (to `records`) of those that have data (RFC 7643 §3); the first problem is returned.
 */
function validateExtensions(model: ResourceModel, patched: Patched, schemas: string[], records: Record<string, unknown>[]): ScimError | undefined {
  const { layout, input, existing, touched } = patched;
  for (const extension of layout.extensions) {
    const value = own(input, extension.id);
    let record: Record<string, unknown> | undefined;
    if (!touched.has(extension.id)) record = isJsonObject(value) ? value : undefined;
    else if (isJsonObject(value)) {
      const stored = own(existing, extension.id);
      const checked = validateExtension(patched, extension, value, isJsonObject(stored) ? stored : undefined);
      if (!checked.ok) return checked.error;
      record = checked.value;
    }
    if (record !== undefined) {
      schemas.push(extension.id);
      records.push(record);
    } else if (extension.required) return missingExtension(model, extension.schema);
  }
  return undefined;
}

/** A core member of the output: readOnly values are the stored ones (RFC 7643 §2.2), the others as validated, or as stored. */
function memberValue(patched: Patched, attribute: AttributeDefinition, values: ReadonlyMap<string, unknown>): unknown {
  const name = attribute.name;
  if (attribute.mutability === 'readOnly') return own(patched.existing, name);
  return patched.touched.has(name) ? values.get(name) : own(patched.input, name);
}

/**
 * The core members but `meta`, in the input's order, which is the schema's when the stored resource
 * was in it and the PATCH added no attribute (the usual case); undefined when it is not, or when a
 * readOnly attribute was touched (its stored value is then kept, wherever the input has it).
 */
function inputOrder(
  scan: Scan,
  values: ReadonlyMap<string, unknown>,
  schemas: string[],
  readOnlyTouched: boolean,
): Record<string, unknown> | undefined {
  if (!scan.ordered || readOnlyTouched) return undefined;
  const out: Record<string, unknown> = { schemas };
  const { core, coreValues, written } = scan;
  let next = 0;
  let placed = 0;
  for (let i = 0; i < core.length; i++) {
    const key = core[i] as string;
    // `written` is the touched keys of `core`, in the same order.
    const wrote = written[next] === key;
    if (wrote) next++;
    if (key === 'meta') continue;
    if (wrote) {
      const value = values.get(key);
      if (value === undefined) continue;
      out[key] = value;
      placed++;
    } else {
      const value = coreValues[i];
      if (value !== undefined && value !== null) out[key] = value;
    }
  }
  // Every validated value is placed.
  return placed === values.size ? out : undefined;
}

/** The core members but `meta`, in schema order (see memberValue). */
function schemaOrder(patched: Patched, values: ReadonlyMap<string, unknown>, schemas: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { schemas };
  for (const attribute of patched.layout.attributes) {
    if (attribute.name === 'meta') continue;
    const value = memberValue(patched, attribute, values);
    if (value !== undefined && value !== null) out[attribute.name] = value;
  }
  return out;
}

/** What one pass over a PATCH result finds (see scanPatched). */
interface Scan {
  /** The input's core keys (`schemas` aside), in input order, and their values. */
  readonly core: readonly string[];
  readonly coreValues: readonly unknown[];
  /** Whether `core` is in the schema's order. */
  readonly ordered: boolean;
  /** The keys of `core` the PATCH wrote, in input order. */
  readonly written: readonly string[];
}

/**
 * One pass over a PATCH result: undefined unless this fast path can take it: every key is
 * `schemas`, a core attribute or an extension URN in the schema's spelling; every key `touched`
 * does not name holds the stored value itself, and no stored key is missing; a touched extension
 * is an object of its own attributes, spelled as the schema spells them.
 */
function scanPatched({ layout, input, existing, touched }: Patched): Scan | undefined {
  const core: string[] = [];
  const coreValues: unknown[] = [];
  const written: string[] = [];
  let ordered = true;
  let last = -1;
  let shared = 0;
  for (const key in input) {
    if (!Object.prototype.hasOwnProperty.call(input, key) || key === 'schemas') continue;
    const entry = layout.byName.get(key);
    if (entry === undefined && !layout.extensionById.has(key)) return undefined;
    const isTouched = touched.has(key);
    const value = input[key];
    if (!isTouched) {
      if (!Object.prototype.hasOwnProperty.call(existing, key) || existing[key] !== value) return undefined;
      shared++;
    }
    if (entry === undefined) continue;
    core.push(key);
    coreValues.push(value);
    if (isTouched) written.push(key);
    if (entry.position < last) ordered = false;
    last = entry.position;
  }
  // Every stored key the PATCH did not write is among those shared: count the stored keys.
  let stored = Object.keys(existing).length;
  if (Object.prototype.hasOwnProperty.call(existing, 'schemas')) stored--;
  for (const key of touched) if (key !== 'schemas' && Object.prototype.hasOwnProperty.call(existing, key)) stored--;
  if (stored !== shared) return undefined;
  for (const extension of layout.extensions) {
    if (!touched.has(extension.id)) continue;
    const value = own(input, extension.id);
    if (value === undefined || value === null) continue;
    if (!isJsonObject(value)) return undefined;
    for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key) && !extension.byName.has(key)) return undefined;
  }
  return { core, coreValues, ordered, written };
}

/** The touched core attributes that are not readOnly, in attribute order, and whether a readOnly one was touched. */
interface TouchedCore {
  readonly attributes: AttributeDefinition[];
  readonly readOnly: boolean;
}

/**
 * The touched core attributes that are not readOnly, in attribute order (the order the whole
 * validation checks them in), and whether a readOnly one was touched; undefined when a touched key
 * is neither a core attribute nor an extension URN.
 */
function touchedCore({ layout, touched }: Patched): TouchedCore | undefined {
  const found: LayoutAttribute[] = [];
  let readOnly = false;
  for (const key of touched) {
    const entry = layout.byName.get(key);
    if (entry === undefined) {
      if (!layout.extensionById.has(key)) return undefined;
      continue;
    }
    if (entry.attribute.mutability === 'readOnly') readOnly = true;
    else found.push(entry);
  }
  if (found.length > 1) found.sort((a, b) => a.position - b.position);
  return { attributes: found.map((entry) => entry.attribute), readOnly };
}

/**
 * A touched extension object: its members validated as a whole (readOnly ones left out: they are
 * the stored ones), then the stored rules (settleMember) on the readOnly members and on those the
 * PATCH wrote, in attribute order; undefined when nothing is left.
 */
function validateExtension(
  { baselines, rules }: Patched,
  extension: LayoutExtension,
  value: Record<string, unknown>,
  stored: Record<string, unknown> | undefined,
): Result<Record<string, unknown> | undefined> {
  const { schema, prefix } = extension;
  // Its keys are its attributes' names (scanPatched): only readOnly ones are left out.
  let input = value;
  if (extension.readOnlyMembers) {
    input = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value)) if (extension.byName.get(key)?.mutability !== 'readOnly') input[key] = value[key];
  }
  const checked = validateMembers(schema.attributes, input, prefix, rules, false, baselines.of(stored, schema.id));
  // Without readOnly or immutable members, the stored rules change nothing: the validated members are the answer.
  if (!checked.ok || (!extension.readOnlyMembers && !extension.immutableMembers)) return checked;
  const validated = checked.value ?? {};
  const out: Record<string, unknown> = {};
  let members = 0;
  for (const attribute of schema.attributes) {
    const name = attribute.name;
    let kept = own(validated, name);
    // Only readOnly members (the stored ones) and those the PATCH wrote can differ from what is stored.
    if (attribute.mutability === 'readOnly' || own(value, name) !== own(stored ?? {}, name)) {
      const settled = settleMember(attribute, kept, stored, prefix, 'patch', true);
      if (!settled.ok) return settled;
      kept = settled.value;
    }
    if (kept === undefined) continue;
    out[name] = kept;
    members++;
  }
  return ok(members === 0 ? undefined : out);
}

function own(object: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}
