import type { ScimError } from '../errors/scim-error.js';
import { scimError } from '../errors/scim-error.js';
import type { ResourceModel } from './resource-model.js';

/**
 * RFC 7643 §3 `schemas` of a resource body: filled in when absent; otherwise it must list the core
 * URN, and (unless unknown attributes are ignored) only schemas of this resource type.
 */
export function checkSchemasValue(model: ResourceModel, schemas: unknown, rejectUnknown: boolean): ScimError | undefined {
  if (schemas === undefined || schemas === null) return undefined;
  if (!Array.isArray(schemas) || schemas.some(notString)) {
    return scimError('invalidValue', "Attribute 'schemas' must be an array of schema URIs");
  }
  const listed = schemas as string[];
  if (declaredSpelling(model, listed)) return undefined;
  const core = model.core.id.toLowerCase();
  if (!listed.some((s) => s.toLowerCase() === core)) {
    return scimError('invalidValue', `Attribute 'schemas' must include the schema '${model.core.id}'`);
  }
  const known = (urn: string): boolean => urn === core || model.extensions.some((e) => e.schema.id.toLowerCase() === urn);
  const unknown = listed.find((s) => !known(s.toLowerCase()));
  if (unknown !== undefined && rejectUnknown) {
    return scimError('invalidValue', `Attribute 'schemas' lists '${unknown}', which is not a schema of resource type '${model.definition.name}'`);
  }
  return undefined;
}

function notString(value: unknown): boolean {
  return typeof value !== 'string';
}

/** The usual case: the core URN first, then extensions of the resource type, spelled as declared. */
function declaredSpelling(model: ResourceModel, listed: readonly string[]): boolean {
  if (listed[0] !== model.core.id) return false;
  for (let i = 1; i < listed.length; i++) {
    let known = false;
    for (const extension of model.extensions) if (extension.schema.id === listed[i]) known = true;
    if (!known) return false;
  }
  return true;
}
