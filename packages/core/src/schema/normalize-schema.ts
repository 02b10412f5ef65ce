import type { SchemaDefinition, SchemaDefinitionInput } from './attribute-definition.js';
import { normalizeAttributes } from './normalize-attribute.js';

/** Normalize a schema declared in the RFC 7643 §7 shape. Throws a TypeError when it is invalid. */
export function normalizeSchema(input: SchemaDefinitionInput): SchemaDefinition {
  const id: unknown = input?.id;
  if (typeof id !== 'string' || id.length === 0 || id.endsWith(':') || /\s/.test(id)) {
    throw new TypeError(`Schema: invalid id ${JSON.stringify(id)} (a URI, RFC 7643 §7)`);
  }
  if (input.name !== undefined && typeof input.name !== 'string') throw new TypeError(`Schema ${id}: name must be a string`);
  if (input.description !== undefined && typeof input.description !== 'string') {
    throw new TypeError(`Schema ${id}: description must be a string`);
  }
  return Object.freeze({
    id,
    name: input.name ?? id.slice(id.lastIndexOf(':') + 1),
    description: input.description ?? '',
    attributes: normalizeAttributes(input.attributes, `Schema ${id}`),
  });
}
