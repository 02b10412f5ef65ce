import type { AttributeDefinition } from '../schema/attribute-definition.js';
import type { ResourceModel } from '../schema/resource-model.js';
import type { AttrPath } from './ast.js';

/** An attribute a filter or sort names, resolved relative to the object the test will receive. */
export interface ScopedAttribute {
  /** The attribute the path names at this level (the top-level attribute, or the sub-attribute inside `[…]`). */
  readonly attribute: AttributeDefinition;
  readonly subAttribute?: AttributeDefinition;
  /** `subAttribute ?? attribute`. */
  readonly target: AttributeDefinition;
  /** Schema-spelled keys from the scope's object to the value. */
  readonly keys: readonly string[];
}

/**
 * For each of `attribute.keys`, whether the value there is multi-valued: the leading keys are
 * containers (an extension's URN), then the attribute, then its sub-attribute.
 */
export function multiValuedKeys(attribute: ScopedAttribute): boolean[] {
  const flags = attribute.keys.map(() => false);
  if (flags.length === 0) return flags;
  const own = attribute.subAttribute === undefined ? 1 : 2;
  flags[flags.length - own] = attribute.attribute.multiValued;
  if (attribute.subAttribute !== undefined) flags[flags.length - 1] = attribute.subAttribute.multiValued;
  return flags;
}

/** Where paths are resolved: a whole resource of one type, or one element of a multi-valued or complex attribute. */
export interface FilterScope {
  /** The multi-valued or complex attribute whose elements this scope tests, inside a value filter `attr[…]`. */
  readonly parent?: AttributeDefinition;
  resolve(path: AttrPath): ScopedAttribute | undefined;
}

/**
 * `schemas` (RFC 7643 §3) is filterable (RFC 7644 §3.4.2.2, Figure 2: `schemas eq "urn:…"`) though no
 * schema declares it. Schema URIs compare ignoring case, as the registry looks them up.
 */
const SCHEMAS_ATTRIBUTE: AttributeDefinition = {
  name: 'schemas',
  type: 'reference',
  multiValued: true,
  description: 'The schema URIs of the resource (RFC 7643 §3).',
  required: true,
  caseExact: false,
  mutability: 'readOnly',
  returned: 'always',
  uniqueness: 'none',
  referenceTypes: ['uri'],
};

/** The top-level scope of one resource type. */
export function resourceScope(model: ResourceModel): FilterScope {
  const coreUri = model.core.id.toLowerCase();
  return {
    resolve(path) {
      const resolved = model.resolve(path);
      if (resolved !== undefined) return resolved;
      const isSchemas =
        path.attr.toLowerCase() === 'schemas' && path.subAttr === undefined && (path.uri === undefined || path.uri.toLowerCase() === coreUri);
      return isSchemas ? { attribute: SCHEMAS_ATTRIBUTE, target: SCHEMAS_ATTRIBUTE, keys: ['schemas'] } : undefined;
    },
  };
}

/**
 * The scope inside `parent[…]`: bare sub-attribute names of `parent`, case-insensitive. For a
 * multi-valued attribute of simple values (no sub-attributes), `value` is the element itself.
 */
export function elementScope(parent: AttributeDefinition): FilterScope {
  const subs = new Map((parent.subAttributes ?? []).map((sub) => [sub.name.toLowerCase(), sub] as const));
  const self: AttributeDefinition = { ...parent, multiValued: false };
  return {
    parent,
    resolve(path) {
      if (path.uri !== undefined || path.subAttr !== undefined) return undefined;
      const name = path.attr.toLowerCase();
      if (parent.type !== 'complex') return name === 'value' ? { attribute: self, target: self, keys: [] } : undefined;
      const sub = subs.get(name);
      return sub === undefined ? undefined : { attribute: sub, target: sub, keys: [sub.name] };
    },
  };
}
