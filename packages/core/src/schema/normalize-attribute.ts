import type { AttributeDefinition, AttributeDefinitionInput, AttributeType, Mutability, Returned, Uniqueness } from './attribute-definition.js';
import { isAttributeName } from './attribute-name.js';

const TYPES: ReadonlySet<string> = new Set<AttributeType>(['string', 'boolean', 'decimal', 'integer', 'dateTime', 'binary', 'reference', 'complex']);
const MUTABILITIES: ReadonlySet<string> = new Set<Mutability>(['readOnly', 'readWrite', 'immutable', 'writeOnly']);
const RETURNED: ReadonlySet<string> = new Set<Returned>(['always', 'never', 'default', 'request']);
const UNIQUENESS: ReadonlySet<string> = new Set<Uniqueness>(['none', 'server', 'global']);

/**
 * Fill in the RFC 7643 §2.2 defaults: type string, multiValued false, required false, caseExact
 * false, mutability readWrite, returned default, uniqueness none, no canonical values.
 * Throws a TypeError for an invalid declaration (a programmer error at start-up); `where` names it.
 */
export function normalizeAttribute(input: AttributeDefinitionInput, where: string): AttributeDefinition {
  const name: unknown = input?.name;
  if (typeof name !== 'string' || !isAttributeName(name)) {
    throw new TypeError(`${where}: invalid attribute name ${JSON.stringify(name)} (RFC 7643 §2.1)`);
  }
  const at = `${where}.${name}`;
  const type = input.type ?? 'string';
  if (!TYPES.has(type)) throw new TypeError(`${at}: unknown type ${JSON.stringify(type)}`);
  const mutability = input.mutability ?? 'readWrite';
  if (!MUTABILITIES.has(mutability)) throw new TypeError(`${at}: unknown mutability ${JSON.stringify(mutability)}`);
  const returned = input.returned ?? 'default';
  if (!RETURNED.has(returned)) throw new TypeError(`${at}: unknown returned ${JSON.stringify(returned)}`);
  const uniqueness = input.uniqueness ?? 'none';
  if (!UNIQUENESS.has(uniqueness)) throw new TypeError(`${at}: unknown uniqueness ${JSON.stringify(uniqueness)}`);
  for (const key of ['multiValued', 'required', 'caseExact'] as const) {
    if (input[key] !== undefined && typeof input[key] !== 'boolean') throw new TypeError(`${at}: ${key} must be a boolean`);
  }
  if (input.subAttributes !== undefined && type !== 'complex') {
    throw new TypeError(`${at}: only complex attributes have subAttributes (RFC 7643 §2.3.8)`);
  }
  if (type === 'complex' && (input.subAttributes === undefined || input.subAttributes.length === 0)) {
    throw new TypeError(`${at}: a complex attribute needs subAttributes (RFC 7643 §2.3.8)`);
  }
  const definition: {
    -readonly [K in keyof AttributeDefinition]: AttributeDefinition[K];
  } = {
    name,
    type,
    multiValued: input.multiValued ?? false,
    description: input.description ?? '',
    required: input.required ?? false,
    caseExact: input.caseExact ?? false,
    mutability,
    returned,
    uniqueness,
  };
  if (input.canonicalValues !== undefined) definition.canonicalValues = stringList(input.canonicalValues, `${at}.canonicalValues`);
  if (input.referenceTypes !== undefined) definition.referenceTypes = stringList(input.referenceTypes, `${at}.referenceTypes`);
  if (input.subAttributes !== undefined) definition.subAttributes = normalizeAttributes(input.subAttributes, at);
  return Object.freeze(definition);
}

/** Normalize a list of attributes, rejecting names that collide ignoring case (RFC 7644 §3.10). */
export function normalizeAttributes(inputs: readonly AttributeDefinitionInput[], where: string): readonly AttributeDefinition[] {
  if (!Array.isArray(inputs)) throw new TypeError(`${where}: attributes must be an array`);
  const seen = new Set<string>();
  const out: AttributeDefinition[] = [];
  for (const input of inputs) {
    const attribute = normalizeAttribute(input, where);
    const key = attribute.name.toLowerCase();
    if (seen.has(key)) throw new TypeError(`${where}: duplicate attribute '${attribute.name}'`);
    seen.add(key);
    out.push(attribute);
  }
  return Object.freeze(out);
}

function stringList(values: readonly string[], where: string): readonly string[] {
  if (!Array.isArray(values) || values.some((v) => typeof v !== 'string')) throw new TypeError(`${where} must be an array of strings`);
  return Object.freeze([...values]);
}
