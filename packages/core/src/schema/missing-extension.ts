import { scimError, type ScimError } from '../errors/scim-error.js';
import type { SchemaDefinition } from './attribute-definition.js';
import type { ResourceModel } from './resource-model.js';

/** RFC 7643 §6 schemaExtensions.required: the resource MUST include the extension; 400 invalidValue when it does not. */
export function missingExtension(model: ResourceModel, schema: SchemaDefinition): ScimError {
  return scimError('invalidValue', `Schema extension '${schema.id}' is required for resource type '${model.definition.name}'`);
}
