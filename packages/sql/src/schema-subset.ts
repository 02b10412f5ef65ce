import type { AttributeDefinition, AttributeDefinitionInput, SchemaDefinition, SchemaDefinitionInput, SchemaRegistry } from '@scimkit/core';
import type { TableMapping } from './mapping.js';
import { compileMapping } from './compile-mapping.js';
import { memberTypes } from './member-types.js';

/**
 * The schemas a mapping stores, for `/Schemas` and `/ResourceTypes` (pass them as `schemas` to
 * `createScimServer`; they keep the built-in URNs): every top-level attribute with a mapped column,
 * served whole (its sub-attributes and other elements then reach the store's unmapped policy),
 * `members` when a join table keeps them (its `$ref` naming only the member types the table keeps:
 * `User`, or `User` and `Group` with a nested-group `typeColumn`, so the core refuses any other
 * member with 400 invalidValue), `groups` (computed), and everything when the table has a
 * JSON column. Top-level attributes left out are the core's to refuse or drop (`unknownAttributes`).
 * `id`, `externalId` and `meta` are common attributes (RFC 7643 §3.1), in no schema.
 */
export function mappedSchemas(registry: SchemaRegistry, mapping: Readonly<Record<string, TableMapping>>): SchemaDefinitionInput[] {
  const kept = new Map<string, Set<string>>();
  const whole = new Set<string>();
  const membersOf = new Map<string, readonly string[]>();
  const keep = (schema: string, path: string) => {
    let set = kept.get(schema.toLowerCase());
    if (set === undefined) kept.set(schema.toLowerCase(), (set = new Set()));
    set.add(path.toLowerCase());
  };
  for (const [type, table] of Object.entries(mapping)) {
    const model = registry.resourceType(type);
    if (model === undefined) throw new TypeError(`@scimkit/sql: the mapping names '${type}', which the schemas do not define`);
    const compiled = compileMapping(model.definition.name, model, table);
    if (table.json !== undefined) {
      whole.add(model.core.id.toLowerCase());
      for (const extension of model.extensions) whole.add(extension.schema.id.toLowerCase());
    }
    for (const attribute of compiled.attributes) {
      const schema = attribute.extension ?? model.core.id;
      const keys = attribute.extension === undefined ? attribute.keys : attribute.keys.slice(1);
      keep(schema, keys[0] as string);
      if (attribute.element !== undefined) {
        keep(schema, `${keys[0]}.${attribute.element.selector}`);
        keep(schema, `${keys[0]}.${attribute.element.sub}`);
      } else if (keys.length > 1) keep(schema, `${keys[0]}.${keys[1]}`);
    }
    if (table.members !== undefined) {
      membersOf.set(model.core.id.toLowerCase(), memberTypes(table.members));
      keep(model.core.id, 'members');
      for (const sub of ['value', 'type', 'display', '$ref']) keep(model.core.id, `members.${sub}`);
    }
    // `groups` is computed by the core from the membership (RFC 7643 §4.1.2), never stored.
    if (model.core.id.toLowerCase() === 'urn:ietf:params:scim:schemas:core:2.0:user') {
      keep(model.core.id, 'groups');
      for (const sub of ['value', '$ref', 'display', 'type']) keep(model.core.id, `groups.${sub}`);
    }
  }
  const out: SchemaDefinitionInput[] = [];
  for (const schema of registry.schemas) {
    const id = schema.id.toLowerCase();
    const types = membersOf.get(id);
    if (whole.has(id)) {
      out.push(types === undefined ? (schema as SchemaDefinitionInput) : { ...(schema as SchemaDefinitionInput), attributes: schema.attributes.map((a) => withMemberTypes(a, types)) });
      continue;
    }
    const paths = kept.get(id);
    if (paths === undefined) continue;
    out.push(subset(schema, paths, types));
  }
  return out;
}

function subset(schema: SchemaDefinition, paths: ReadonlySet<string>, memberTypes: readonly string[] | undefined): SchemaDefinitionInput {
  const attributes: AttributeDefinitionInput[] = [];
  for (const attribute of schema.attributes) {
    const name = attribute.name.toLowerCase();
    if (!paths.has(name)) continue;
    // A mapped attribute is served whole: the sub-attributes and elements clients send with it
    // (`emails[].primary`) reach the store, whose unmapped policy rejects or reports them.
    attributes.push(memberTypes === undefined ? (attribute as AttributeDefinitionInput) : withMemberTypes(attribute, memberTypes));
  }
  return { ...(schema as SchemaDefinitionInput), attributes };
}

/** `members` naming only the member types kept: `$ref`'s referenceTypes and `type`'s canonical values. */
function withMemberTypes(attribute: AttributeDefinition, types: readonly string[]): AttributeDefinitionInput {
  if (attribute.name.toLowerCase() !== 'members' || attribute.subAttributes === undefined) return attribute as AttributeDefinitionInput;
  const subAttributes = attribute.subAttributes.map((sub) => {
    const name = sub.name.toLowerCase();
    if (name === '$ref' && sub.referenceTypes !== undefined) return { ...sub, referenceTypes: sub.referenceTypes.filter((t) => types.includes(t) || !/^(User|Group)$/i.test(t)) };
    if (name === 'type' && sub.canonicalValues !== undefined) return { ...sub, canonicalValues: sub.canonicalValues.filter((v) => types.some((t) => t.toLowerCase() === v.toLowerCase())) };
    return sub;
  });
  return { ...(attribute as AttributeDefinitionInput), subAttributes } as AttributeDefinitionInput;
}
