import type { AttributeDefinition, SchemaDefinition } from './attribute-definition.js';
import { URN } from './urns.js';

/**
 * The `/Schemas` resource of a schema (RFC 7643 §7, §8.7): every characteristic of every attribute
 * and sub-attribute, so that provisioning clients can build their mappings; `canonicalValues` and
 * `referenceTypes` where defined. `meta.location` is `${baseUrl}/Schemas/${id}` when `baseUrl` is given.
 */
export function schemaDocument(schema: SchemaDefinition, baseUrl?: string): Record<string, unknown> {
  const meta: Record<string, unknown> = { resourceType: 'Schema' };
  if (baseUrl !== undefined) meta['location'] = `${trimSlash(baseUrl)}/Schemas/${schema.id}`;
  return {
    schemas: [URN.schema],
    id: schema.id,
    name: schema.name,
    description: schema.description,
    attributes: schema.attributes.map(attributeDocument),
    meta,
  };
}

/** One attribute as RFC 7643 §7 `attributes` describes it. */
export function attributeDocument(attribute: AttributeDefinition): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: attribute.name,
    type: attribute.type,
    multiValued: attribute.multiValued,
    description: attribute.description,
    required: attribute.required,
    caseExact: attribute.caseExact,
    mutability: attribute.mutability,
    returned: attribute.returned,
    uniqueness: attribute.uniqueness,
  };
  if (attribute.canonicalValues !== undefined) out['canonicalValues'] = [...attribute.canonicalValues];
  if (attribute.referenceTypes !== undefined) out['referenceTypes'] = [...attribute.referenceTypes];
  if (attribute.subAttributes !== undefined) out['subAttributes'] = attribute.subAttributes.map(attributeDocument);
  return out;
}

export function trimSlash(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '');
}
