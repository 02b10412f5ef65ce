import type { ResourceModel } from './resource-model.js';
import { trimSlash } from './schema-document.js';
import { URN } from './urns.js';

/**
 * The `/ResourceTypes` resource of a resource type (RFC 7643 §6, §8.6). `schemaExtensions` is present
 * when the type has extensions. `meta.location` is `${baseUrl}/ResourceTypes/${id}` when `baseUrl` is given.
 */
export function resourceTypeDocument(model: ResourceModel, baseUrl?: string): Record<string, unknown> {
  const definition = model.definition;
  const out: Record<string, unknown> = {
    schemas: [URN.resourceType],
    id: definition.id,
    name: definition.name,
    description: definition.description,
    endpoint: definition.endpoint,
    schema: definition.schema,
  };
  if (definition.schemaExtensions.length > 0) {
    out['schemaExtensions'] = definition.schemaExtensions.map((e) => ({ schema: e.schema, required: e.required }));
  }
  const meta: Record<string, unknown> = { resourceType: 'ResourceType' };
  if (baseUrl !== undefined) meta['location'] = `${trimSlash(baseUrl)}/ResourceTypes/${definition.id}`;
  out['meta'] = meta;
  return out;
}
