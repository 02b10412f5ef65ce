import { modelLayout } from '../schema/model-layout.js';
import type { ResourceModel } from '../schema/resource-model.js';
import type { ElementEdit } from './element-changes.js';
import { findKey, isJsonObject, isUnassigned, type JsonObject } from '../values/index.js';
import { setOwn } from '../json/with-entry.js';

/**
 * After the operations: unassigned values are dropped (RFC 7643 §2.5: null, `[]`, empty complex
 * values), and `schemas` lists the core schema and exactly the extensions that have data
 * (RFC 7644 §3.5.2: adding an extension attribute adds its URN). `doc` is the private working copy;
 * `touched` are its top-level keys the operations wrote (the others are left as stored), `original`
 * the stored resource: elements of a written array that are the stored ones, kept in order, are
 * left as stored too, so adding one member to a large group does not walk the group. `edits` (by
 * lower-cased path, see `elementEdits`) tell which arrays only lost stored elements and gained
 * appended ones: only the appended ones are cleaned up (and the edit updated to them), the stored
 * ones are not even compared.
 */
export function finalizeResource(
  model: ResourceModel,
  doc: JsonObject,
  touched: ReadonlySet<string>,
  original?: Readonly<JsonObject>,
  edits?: ReadonlyMap<string, ElementEdit>,
): void {
  for (const key of touched) {
    if (key === 'schemas' || !Object.prototype.hasOwnProperty.call(doc, key)) continue;
    const stored = original !== undefined && Object.prototype.hasOwnProperty.call(original, key) ? original[key] : undefined;
    const edit = edits?.get(key.toLowerCase());
    const edited = edit === undefined ? undefined : pruneEdited(doc[key], stored, edit);
    const value = edited !== undefined ? edited : prune(doc[key], Array.isArray(stored) ? stored : undefined);
    if (isUnassigned(value)) delete doc[key];
    else doc[key] = value;
  }

  doc.schemas = derivedSchemas(model, doc);
}

/**
 * `schemas` after a PATCH: the core URN, the URNs listed that are no extension of the resource type
 * (validation judges them), and the extensions that have data: listed ones in their listed order,
 * then the others in the resource type's order; each once, ignoring case. The stored array itself
 * when that is what it says.
 */
function derivedSchemas(model: ResourceModel, doc: JsonObject): readonly unknown[] {
  const layout = modelLayout(model);
  const raw = doc.schemas;
  const listed: readonly unknown[] = Array.isArray(raw) ? raw : [];
  const schemas: string[] = [model.core.id];
  const lowers: string[] = [layout.coreLower];
  let strings = true;
  for (let i = 0; i < listed.length; i++) {
    const urn = listed[i];
    if (typeof urn !== 'string') {
      strings = false;
      continue;
    }
    if (urn === model.core.id) continue;
    // Matched as spelled first: case folding only for URNs spelled otherwise.
    let extension = layout.extensionById.get(urn);
    if (extension === undefined) {
      const lower = urn.toLowerCase();
      if (lower === layout.coreLower) continue;
      extension = layout.extensionByLower.get(lower);
      if (extension === undefined) {
        add(schemas, lowers, urn, lower);
        continue;
      }
    }
    if (findKey(doc, extension.id) !== undefined) add(schemas, lowers, extension.id, extension.lower);
  }
  for (const extension of layout.extensions) if (findKey(doc, extension.id) !== undefined) add(schemas, lowers, extension.id, extension.lower);
  // Keep the stored array when it says the same (only strings, same order).
  if (!strings || listed.length !== schemas.length) return schemas;
  for (let i = 0; i < schemas.length; i++) if (listed[i] !== schemas[i]) return schemas;
  return listed;
}

function add(schemas: string[], lowers: string[], urn: string, lower: string): void {
  if (!lowers.includes(lower)) {
    schemas.push(urn);
    lowers.push(lower);
  }
}

/**
 * `prune` of an array that `edit` says is `stored` without the edit's removed elements and with its
 * added ones at the end: only the added ones are pruned (and `edit.added` set to what is left of
 * them). Undefined when the array does not add up so (then `prune` walks it).
 */
function pruneEdited(value: unknown, stored: unknown, edit: ElementEdit): unknown {
  if (!Array.isArray(value)) return undefined;
  const kept = value.length - edit.added.length;
  if (kept < 0 || kept !== (Array.isArray(stored) ? stored.length : 0) - edit.removed.length) return undefined;
  for (let i = 0; i < edit.added.length; i++) if (value[kept + i] !== edit.added[i]) return undefined;
  let out: unknown[] | undefined;
  for (let i = kept; i < value.length; i++) {
    const item: unknown = value[i];
    const pruned = prune(item);
    const drop = isUnassigned(pruned);
    if (out === undefined && (drop || pruned !== item)) out = value.slice(0, i);
    if (out !== undefined && !drop) out.push(pruned);
  }
  // Nothing pruned: the added elements are as they were.
  if (out === undefined) return value;
  edit.added = out.slice(kept);
  return out;
}

/**
 * The value without unassigned members, at every depth; the same object when there are none.
 * Elements of an array that are the elements of `stored` (same objects, same order) are kept as they are.
 */
function prune(value: unknown, stored?: readonly unknown[]): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    let at = 0;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      // One forward walk over `stored` in all (identity only): removed elements are skipped over.
      while (stored !== undefined && at < stored.length && stored[at] !== item) at++;
      const kept = stored !== undefined && at < stored.length;
      if (kept) at++;
      const pruned = kept ? item : prune(item);
      const drop = !kept && isUnassigned(pruned);
      if (out === undefined && (drop || pruned !== item)) out = value.slice(0, i);
      if (out !== undefined && !drop) out.push(pruned);
    }
    return out ?? value;
  }
  if (isJsonObject(value)) {
    let out: JsonObject | undefined;
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      const item = value[key];
      const pruned = prune(item);
      const drop = isUnassigned(pruned);
      if (out === undefined && (drop || pruned !== item)) {
        out = {};
        for (let j = 0; j < i; j++) setOwn(out, keys[j] as string, value[keys[j] as string]);
      }
      if (out !== undefined && !drop) setOwn(out, key, pruned);
    }
    return out ?? value;
  }
  return value;
}

