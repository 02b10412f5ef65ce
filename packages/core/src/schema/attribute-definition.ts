/**
 * The RFC 7643 §2.2 / §7 attribute model, in the RFC's own JSON shape.
 *
 * `AttributeDefinitionInput` is what users declare (characteristics optional, defaulted per
 * RFC 7643 §2.2); `AttributeDefinition` is the normalized form the engine works on, with every
 * characteristic present.
 */
export type AttributeType = 'string' | 'boolean' | 'decimal' | 'integer' | 'dateTime' | 'binary' | 'reference' | 'complex';
export type Mutability = 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
export type Returned = 'always' | 'never' | 'default' | 'request';
export type Uniqueness = 'none' | 'server' | 'global';

export interface AttributeDefinitionInput {
  readonly name: string;
  readonly type?: AttributeType;
  readonly multiValued?: boolean;
  readonly description?: string;
  readonly required?: boolean;
  readonly caseExact?: boolean;
  readonly mutability?: Mutability;
  readonly returned?: Returned;
  readonly uniqueness?: Uniqueness;
  readonly canonicalValues?: readonly string[];
  readonly referenceTypes?: readonly string[];
  readonly subAttributes?: readonly AttributeDefinitionInput[];
}

export interface AttributeDefinition {
  readonly name: string;
  readonly type: AttributeType;
  readonly multiValued: boolean;
  readonly description: string;
  readonly required: boolean;
  readonly caseExact: boolean;
  readonly mutability: Mutability;
  readonly returned: Returned;
  readonly uniqueness: Uniqueness;
  readonly canonicalValues?: readonly string[];
  readonly referenceTypes?: readonly string[];
  readonly subAttributes?: readonly AttributeDefinition[];
}

/** A schema as RFC 7643 §7 describes it (the `/Schemas` resource, without `meta`). */
export interface SchemaDefinitionInput {
  readonly id: string;
  readonly name?: string;
  readonly description?: string;
  readonly attributes: readonly AttributeDefinitionInput[];
}

export interface SchemaDefinition {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly attributes: readonly AttributeDefinition[];
}

/** A resource type as RFC 7643 §6 describes it. `id` defaults to `name`. */
export interface ResourceTypeDefinitionInput {
  readonly id?: string;
  readonly name: string;
  readonly description?: string;
  /** HTTP-addressable endpoint relative to the base URL, e.g. `/Users`. */
  readonly endpoint: string;
  /** URN of the core schema. */
  readonly schema: string;
  readonly schemaExtensions?: readonly { readonly schema: string; readonly required: boolean }[];
}

export interface ResourceTypeDefinition {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly endpoint: string;
  readonly schema: string;
  readonly schemaExtensions: readonly { readonly schema: string; readonly required: boolean }[];
}
