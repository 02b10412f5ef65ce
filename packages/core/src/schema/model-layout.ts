import type { AttributeDefinition, SchemaDefinition } from './attribute-definition.js';
import type { ResourceModel } from './resource-model.js';
import { topLevelAttributes } from './top-level-attributes.js';
import { memoOf, memoSlot } from './model-memo.js';

/** One schema extension of a resource type, with its URN folded for case-insensitive matching. */
export interface LayoutExtension {
  readonly schema: SchemaDefinition;
  readonly required: boolean;
  /** `schema.id`, the key its attributes live under (RFC 7643 §3.3). */
  readonly id: string;
  readonly lower: string;
  /** Its attributes by their exact (schema) name. */
  readonly byName: ReadonlyMap<string, AttributeDefinition>;
  /** Whether an attribute is readOnly (a PATCH result keeps the stored value). */
  readonly readOnlyMembers: boolean;
  /** Whether an attribute is immutable, or single-valued complex with an immutable sub-attribute (see keepImmutable). */
  readonly immutableMembers: boolean;
  /** What precedes a member's name in error paths: `urn:…:User:`. */
  readonly prefix: string;
}

/** A top-level core attribute and its position in output order. */
export interface LayoutAttribute {
  readonly attribute: AttributeDefinition;
  readonly position: number;
}

/**
 * What PATCH and its validation need to know of a resource type's top level, derived once per model
 * (models are immutable): names in the schema's spelling, output order, `required` and `readOnly`
 * attributes, the extensions by URN. Per-request work then only looks things up.
 */
export interface ModelLayout {
  /** The core schema's URN, lower case. */
  readonly coreLower: string;
  /** Top-level core attributes (common ones included) in output order: id, externalId, …, meta. */
  readonly attributes: readonly AttributeDefinition[];
  /** The same by exact name, with their position in `attributes`. */
  readonly byName: ReadonlyMap<string, LayoutAttribute>;
  /** Required core attributes a client writes (readOnly ones are the service provider's), in order. */
  readonly required: readonly AttributeDefinition[];
  /** readOnly core attributes, in order. */
  readonly readOnly: readonly AttributeDefinition[];
  /** The extensions, in the resource type's order. */
  readonly extensions: readonly LayoutExtension[];
  /** The extensions by exact URN and by lower-case URN. */
  readonly extensionById: ReadonlyMap<string, LayoutExtension>;
  readonly extensionByLower: ReadonlyMap<string, LayoutExtension>;
}

/** The layout of `model`, derived on first use. */
export function modelLayout(model: ResourceModel): ModelLayout {
  return memoOf(model).get(LAYOUT, model);
}

/** Derived once per model, kept in its memo. */
const LAYOUT = memoSlot('layout', compute);

/** Whether `keepImmutable` can do more than return the new value for the attribute. */
function keepsImmutable(attribute: AttributeDefinition): boolean {
  if (attribute.mutability === 'immutable') return true;
  return attribute.type === 'complex' && !attribute.multiValued && (attribute.subAttributes ?? []).some((s) => s.mutability === 'immutable');
}

function compute(model: ResourceModel): ModelLayout {
  const attributes = topLevelAttributes(model);
  const byName = new Map<string, LayoutAttribute>();
  attributes.forEach((attribute, position) => byName.set(attribute.name, Object.freeze({ attribute, position })));
  const extensions = model.extensions.map(({ schema, required }) =>
    Object.freeze({
      schema,
      required,
      id: schema.id,
      lower: schema.id.toLowerCase(),
      byName: new Map(schema.attributes.map((a) => [a.name, a])),
      readOnlyMembers: schema.attributes.some((a) => a.mutability === 'readOnly'),
      immutableMembers: schema.attributes.some(keepsImmutable),
      prefix: `${schema.id}:`,
    }),
  );
  return Object.freeze({
    coreLower: model.core.id.toLowerCase(),
    attributes,
    byName,
    required: Object.freeze(attributes.filter((a) => a.required && a.mutability !== 'readOnly')),
    readOnly: Object.freeze(attributes.filter((a) => a.mutability === 'readOnly')),
    extensions: Object.freeze(extensions),
    extensionById: new Map(extensions.map((e) => [e.id, e])),
    extensionByLower: new Map(extensions.map((e) => [e.lower, e])), // URNs are unique ignoring case (createSchemaRegistry)
  });
}
