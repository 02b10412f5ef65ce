import type { AttrPath } from '../filter/ast.js';
import type { AttributeFacts, UniqueAttribute } from '../store/scim-store.js';
import type { AttributeDefinition, ResourceTypeDefinition, SchemaDefinition } from './attribute-definition.js';

/**
 * One resource type with its core schema and extensions, compiled for fast, case-insensitive
 * attribute resolution. Built by `createSchemaRegistry()`; one per resource type per server.
 */
export interface ResourceModel {
  readonly definition: ResourceTypeDefinition;
  readonly core: SchemaDefinition;
  readonly extensions: readonly { readonly schema: SchemaDefinition; readonly required: boolean }[];
  /** Top-level attributes whose `uniqueness` is `server` or `global`, with their caseExact. */
  readonly unique: readonly UniqueAttribute[];
  /**
   * Resolve an attribute path, case-insensitively: `userName`, `name.givenName`,
   * `urn:ietf:params:scim:schemas:core:2.0:User:name.givenName`,
   * `urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value`, and the common
   * attributes `id`, `externalId`, `meta.*` (RFC 7643 §3.1). Undefined when unknown, and for any
   * segment named `__proto__`, `constructor` or `prototype` that the schema does not declare.
   */
  resolve(path: AttrPath): ResolvedAttribute | undefined;
  /** The same resolution, reduced to what a store needs to push a filter down. */
  facts(path: AttrPath): AttributeFacts | undefined;
}

export interface ResolvedAttribute {
  /** URN of the schema that owns the attribute (the core schema's URN for common attributes). */
  readonly schema: string;
  /** True when the value lives under the extension's URN key in the resource. */
  readonly extension: boolean;
  /** The top-level attribute. */
  readonly attribute: AttributeDefinition;
  readonly subAttribute?: AttributeDefinition;
  /** `subAttribute ?? attribute`. */
  readonly target: AttributeDefinition;
  /** Schema-spelled keys that reach the value: `['name', 'givenName']`, `[urn, 'manager', 'value']`. */
  readonly keys: readonly string[];
}
