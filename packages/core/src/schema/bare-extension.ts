import type { AttrPath } from '../filter/ast.js';
import type { SchemaDefinition } from './attribute-definition.js';
import type { ResourceModel } from './resource-model.js';

/**
 * The schema extension a path names as a whole (`urn:ietf:params:scim:schemas:extension:enterprise:2.0:User`),
 * however a parser split it. Such a path is not an attribute path (`resolve` returns undefined for it),
 * but in `attributes`/`excludedAttributes` it selects the whole extension.
 */
export function bareExtension(model: ResourceModel, path: AttrPath): SchemaDefinition | undefined {
  if (typeof path?.attr !== 'string') return undefined;
  const text = `${path.uri !== undefined ? `${path.uri}:` : ''}${path.attr}${path.subAttr !== undefined ? `.${path.subAttr}` : ''}`;
  const lower = text.toLowerCase();
  return model.extensions.find((e) => e.schema.id.toLowerCase() === lower)?.schema;
}
