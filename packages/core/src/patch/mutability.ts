import { err, ok, type Result } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import type { AttributeDefinition } from '../schema/attribute-definition.js';
import { assignedEqual, getKey, isJsonObject, isUnassigned } from '../values/index.js';

/**
 * RFC 7644 §3.5.2: a client MUST NOT modify a readOnly or immutable attribute, but MAY add a value
 * to an immutable attribute that had none. Writing the value it already has is not a change.
 */
export function checkMutability(definition: AttributeDefinition, name: string, before: unknown, after: unknown, at: string): Result<void> {
  if (definition.mutability === 'readOnly' && !assignedEqual(before, after)) {
    return err(scimError('mutability', `${at}: "${name}" is readOnly and cannot be modified`));
  }
  if (definition.mutability === 'immutable' && !isUnassigned(before) && !assignedEqual(before, after)) {
    return err(scimError('mutability', `${at}: "${name}" is immutable and already has a value`));
  }
  return ok(undefined);
}

/** The same check for each sub-attribute of a complex value (one object, or one element). */
export function checkSubAttributes(definition: AttributeDefinition, before: unknown, after: unknown, at: string): Result<void> {
  const subs = definition.subAttributes;
  if (subs === undefined) return ok(undefined);
  for (const sub of subs) {
    if (sub.mutability === 'readWrite' || sub.mutability === 'writeOnly') continue;
    const x = isJsonObject(before) ? getKey(before, sub.name) : undefined;
    const y = isJsonObject(after) ? getKey(after, sub.name) : undefined;
    const checked = checkMutability(sub, `${definition.name}.${sub.name}`, x, y, at);
    if (!checked.ok) return checked;
  }
  return ok(undefined);
}

/**
 * RFC 7644 §3.5.2.2: removing a required attribute (or leaving it unassigned) is a 400 with
 * scimType "mutability".
 */
export function checkRequired(definition: AttributeDefinition, name: string, before: unknown, after: unknown, at: string): Result<void> {
  if (definition.required && !isUnassigned(before) && isUnassigned(after)) {
    return err(scimError('mutability', `${at}: "${name}" is required and cannot be removed (RFC 7644 §3.5.2.2)`));
  }
  return ok(undefined);
}
