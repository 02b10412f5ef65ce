import { err, ok, type Result } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import type { AttributeDefinition } from '../schema/attribute-definition.js';
import { cloneJson } from '../json/clone-json.js';
import { findSubAttribute, isJsonObject, type JsonObject } from '../values/index.js';
import type { ResolvedPatchOptions } from './patch-options.js';

/**
 * Brings a client value for `definition` into the stored shape: sub-attribute names in the schema's
 * spelling, "True"/"False" as booleans (option), a bare id as `{value}` (option), a single value
 * of a multi-valued attribute as a one-element array. readOnly sub-attributes in a value are
 * dropped (RFC 7643 §2.2: the service provider ignores them). Types are checked later by
 * `validateResource`; only the shape this engine relies on is checked here.
 */
export function normalizeValue(definition: AttributeDefinition, raw: unknown, options: ResolvedPatchOptions, at: string): Result<unknown> {
  if (!definition.multiValued || raw === null) return normalizeElement(definition, raw, options, at);
  const items = Array.isArray(raw) ? raw : [raw];
  const out: unknown[] = [];
  for (const item of items) {
    const element = normalizeElement(definition, item, options, at);
    if (!element.ok) return element;
    out.push(element.value);
  }
  return ok(out);
}

/** One value of `definition` (one element when it is multi-valued). */
export function normalizeElement(definition: AttributeDefinition, raw: unknown, options: ResolvedPatchOptions, at: string): Result<unknown> {
  if (raw === null || raw === undefined) return ok(null);
  // Entra ID (before its 2020 fixes) sends a single-valued `manager` as `[{"$ref":null,"value":"<id>"}]`.
  if (!definition.multiValued && Array.isArray(raw) && raw.length === 1 && definition.type === 'complex' && options.managerAsString) {
    return normalizeElement(definition, raw[0], options, at);
  }
  if (definition.type === 'complex') {
    if (typeof raw === 'string' && options.managerAsString && findSubAttribute(definition, 'value') !== undefined) {
      return ok({ value: raw });
    }
    if (!isJsonObject(raw)) return err(scimError('invalidValue', `${at}: "${definition.name}" is complex and needs an object value`));
    const out: JsonObject = {};
    for (const key of Object.keys(raw)) {
      const sub = findSubAttribute(definition, key);
      if (sub === undefined) {
        if (options.unknownAttributes === 'ignore') {
          options.onIgnored?.(`${definition.name}.${key}`);
          continue;
        }
        return err(scimError('invalidValue', `${at}: "${key}" is not a sub-attribute of "${definition.name}"`));
      }
      // Inside a writable value; a readOnly attribute's own value is kept so a change is caught.
      if (sub.mutability === 'readOnly' && definition.mutability !== 'readOnly') continue;
      const item = raw[key];
      // A string, number or boolean for a simple, single-valued sub-attribute is kept as it is (see
      // below), but a string given for a boolean.
      if (!sub.multiValued && sub.type !== 'complex' && (typeof item === 'number' || typeof item === 'boolean' || (typeof item === 'string' && sub.type !== 'boolean'))) {
        out[sub.name] = item;
        continue;
      }
      const value = normalizeValue(sub, item, options, at);
      if (!value.ok) return value;
      out[sub.name] = value.value;
    }
    return ok(out);
  }
  if (definition.type === 'boolean' && options.stringBooleans && typeof raw === 'string') {
    const lower = raw.toLowerCase();
    if (lower === 'true') return ok(true);
    if (lower === 'false') return ok(false);
  }
  return ok(cloneJson(raw));
}
