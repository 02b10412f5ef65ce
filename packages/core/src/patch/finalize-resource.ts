import type { ResourceModel } from '../schema/resource-model.js';
import { findKey, isJsonObject, isUnassigned, type JsonObject } from './json-value.js';

/**
 * After the operations: unassigned values are dropped (RFC 7643 §2.5: null, `[]`, empty complex
 * values), and `schemas` lists the core schema and exactly the extensions that have data
 * (RFC 7644 §3.5.2: adding an extension attribute adds its URN). `doc` is the private working copy.
 */
export function finalizeResource(model: ResourceModel, doc: JsonObject): void {
  for (const key of Object.keys(doc)) {
    if (key === 'schemas') continue;
    const value = prune(doc[key]);
    if (isUnassigned(value)) delete doc[key];
    else doc[key] = value;
  }

  const listed = Array.isArray(doc.schemas) ? doc.schemas.filter((s): s is string => typeof s === 'string') : [];
  const extensionIds = new Map(model.extensions.map((e) => [e.schema.id.toLowerCase(), e.schema.id]));
  const schemas: string[] = [];
  const seen = new Set<string>();
  const push = (urn: string): void => {
    const lower = urn.toLowerCase();
    if (!seen.has(lower)) {
      seen.add(lower);
      schemas.push(urn);
    }
  };
  push(model.core.id);
  for (const urn of listed) {
    const lower = urn.toLowerCase();
    if (lower === model.core.id.toLowerCase()) continue;
    const extension = extensionIds.get(lower);
    if (extension === undefined) push(urn);
    else if (findKey(doc, extension) !== undefined) push(extension);
  }
  for (const extension of extensionIds.values()) if (findKey(doc, extension) !== undefined) push(extension);
  // Keep the stored order when the set is the same.
  const same = listed.length === schemas.length && listed.every((s, i) => s === schemas[i]);
  doc.schemas = same ? listed : schemas;
}

/** The value without unassigned members, at every depth. */
function prune(value: unknown): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      const pruned = prune(item);
      if (!isUnassigned(pruned)) out.push(pruned);
    }
    return out;
  }
  if (isJsonObject(value)) {
    let changed = false;
    const out: JsonObject = {};
    for (const key of Object.keys(value)) {
      const pruned = prune(value[key]);
      if (isUnassigned(pruned)) changed = true;
      else {
        if (pruned !== value[key]) changed = true;
        Object.defineProperty(out, key, { value: pruned, enumerable: true, writable: true, configurable: true });
      }
    }
    return changed ? out : value;
  }
  return value;
}
