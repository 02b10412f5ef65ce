import type { ResourceTypeDefinition, ResourceTypeDefinitionInput, SchemaDefinition, SchemaDefinitionInput } from './attribute-definition.js';
import { commonAttributes } from './builtin/common-attributes.js';
import { enterpriseUserSchema } from './builtin/enterprise-user-schema.js';
import { groupSchema } from './builtin/group-schema.js';
import { userSchema } from './builtin/user-schema.js';
import { createResourceModel } from './create-resource-model.js';
import { normalizeAttributes } from './normalize-attribute.js';
import { normalizeSchema } from './normalize-schema.js';
import type { ResourceModel } from './resource-model.js';

export interface SchemaRegistryOptions {
  /** Custom schemas and extensions, or replacements of a built-in schema (same `id`). */
  readonly schemas?: readonly SchemaDefinitionInput[];
  /** The resource types the server serves, e.g. `builtinResourceTypes` or `[userResourceType]`. */
  readonly resourceTypes: readonly ResourceTypeDefinitionInput[];
}

/** The schemas and resource types of one server instance. */
export interface SchemaRegistry {
  /** Every schema of every configured resource type (core schemas, then extensions), each once. */
  readonly schemas: readonly SchemaDefinition[];
  readonly resourceTypes: readonly ResourceModel[];
  /** A schema of a configured resource type, by URN, case-insensitively. */
  schema(id: string): SchemaDefinition | undefined;
  /** A resource type by id or name, case-insensitively. */
  resourceType(idOrName: string): ResourceModel | undefined;
}

/**
 * Build the registry of one server. The built-in User, Group and Enterprise User schemas
 * (RFC 7643 §4) are always known; `schemas` adds custom ones or replaces a built-in one by id.
 * Every registry is independent: nothing is shared between two calls.
 * Throws a TypeError for an invalid configuration (a programmer error at start-up).
 */
export function createSchemaRegistry(options: SchemaRegistryOptions): SchemaRegistry {
  if (options === null || typeof options !== 'object' || !Array.isArray(options.resourceTypes)) {
    throw new TypeError('createSchemaRegistry: resourceTypes must be an array');
  }
  const known = new Map<string, SchemaDefinition>();
  for (const input of [userSchema, groupSchema, enterpriseUserSchema]) known.set(input.id.toLowerCase(), normalizeSchema(input));
  const custom = new Set<string>();
  for (const input of options.schemas ?? []) {
    const schema = normalizeSchema(input);
    const key = schema.id.toLowerCase();
    if (custom.has(key)) throw new TypeError(`createSchemaRegistry: schema '${schema.id}' is declared twice`);
    custom.add(key);
    known.set(key, schema);
  }
  const common = normalizeAttributes(commonAttributes, 'Common attributes');

  const models: ResourceModel[] = [];
  const byName = new Map<string, ResourceModel>();
  const used = new Map<string, SchemaDefinition>();
  const endpoints = new Set<string>();
  for (const input of options.resourceTypes) {
    const definition = normalizeResourceType(input);
    const where = `Resource type '${definition.name}'`;
    for (const key of new Set([definition.id.toLowerCase(), definition.name.toLowerCase()])) {
      if (byName.has(key)) throw new TypeError(`${where}: id or name '${key}' is already used by another resource type`);
    }
    if (endpoints.has(definition.endpoint.toLowerCase())) throw new TypeError(`${where}: endpoint '${definition.endpoint}' is already used`);
    endpoints.add(definition.endpoint.toLowerCase());

    const core = known.get(definition.schema.toLowerCase());
    if (core === undefined) throw new TypeError(`${where}: unknown schema '${definition.schema}'`);
    if (core.attributes.some((a) => a.name.toLowerCase() === 'schemas')) {
      throw new TypeError(`${where}: 'schemas' is reserved for the resource's schema URIs (RFC 7643 §3)`);
    }
    const seen = new Set([core.id.toLowerCase()]);
    const extensions = definition.schemaExtensions.map((e) => {
      const schema = known.get(e.schema.toLowerCase());
      if (schema === undefined) throw new TypeError(`${where}: unknown schema extension '${e.schema}'`);
      if (seen.has(schema.id.toLowerCase())) throw new TypeError(`${where}: schema '${schema.id}' is listed twice`);
      seen.add(schema.id.toLowerCase());
      return { schema, required: e.required };
    });
    const canonical: ResourceTypeDefinition = Object.freeze({
      ...definition,
      schema: core.id,
      schemaExtensions: Object.freeze(extensions.map((e) => Object.freeze({ schema: e.schema.id, required: e.required }))),
    });
    const model = createResourceModel(canonical, core, extensions, common);
    models.push(model);
    byName.set(definition.id.toLowerCase(), model);
    byName.set(definition.name.toLowerCase(), model);
  }
  // Core schemas first, then extensions, each once.
  for (const model of models) used.set(model.core.id.toLowerCase(), model.core);
  for (const model of models) {
    for (const { schema } of model.extensions) if (!used.has(schema.id.toLowerCase())) used.set(schema.id.toLowerCase(), schema);
  }

  return Object.freeze({
    schemas: Object.freeze([...used.values()]),
    resourceTypes: Object.freeze(models),
    schema: (id: string) => (typeof id === 'string' ? used.get(id.toLowerCase()) : undefined),
    resourceType: (idOrName: string) => (typeof idOrName === 'string' ? byName.get(idOrName.toLowerCase()) : undefined),
  });
}

/** RFC 7643 §6: `id` defaults to `name`; `endpoint` is relative to the base URL and starts with `/`. */
function normalizeResourceType(input: ResourceTypeDefinitionInput): ResourceTypeDefinition {
  const name: unknown = input?.name;
  if (typeof name !== 'string' || name.length === 0) throw new TypeError(`Resource type: invalid name ${JSON.stringify(name)}`);
  const where = `Resource type '${name}'`;
  const id = input.id ?? name;
  if (typeof id !== 'string' || id.length === 0) throw new TypeError(`${where}: invalid id`);
  if (typeof input.endpoint !== 'string' || !/^\/[^/?#\s]+$/.test(input.endpoint)) {
    throw new TypeError(`${where}: endpoint must look like '/Things'`);
  }
  if (typeof input.schema !== 'string') throw new TypeError(`${where}: schema must be a URN`);
  const extensions = input.schemaExtensions ?? [];
  if (!Array.isArray(extensions)) throw new TypeError(`${where}: schemaExtensions must be an array`);
  return Object.freeze({
    id,
    name,
    description: input.description ?? '',
    endpoint: input.endpoint,
    schema: input.schema,
    schemaExtensions: Object.freeze(
      extensions.map((e) => {
        if (typeof e?.schema !== 'string' || typeof e.required !== 'boolean') {
          throw new TypeError(`${where}: each schemaExtensions entry needs a schema URN and a boolean required`);
        }
        return Object.freeze({ schema: e.schema, required: e.required });
      }),
    ),
  });
}
