import { err, ok, type Result } from '../errors/result.js';
import { httpError } from '../errors/scim-error.js';
import type { ResourceModel } from '../schema/resource-model.js';
import type { ScimResource } from '../schema/scim-resource.js';
import { applyOperation } from './apply-operation.js';
import { finalizeResource } from './finalize-resource.js';
import { assignedEqual, cloneJson, jsonEqual, type JsonObject } from './json-value.js';
import { parsePatchRequest } from './parse-patch-request.js';
import { resolvePatchOptions, type PatchOptions } from './patch-options.js';

export interface PatchResult {
  /** The patched resource: a new object, `resource` is never touched. */
  readonly resource: ScimResource;
  /**
   * False when the operations left the resource as it was (unassigned values aside): the server
   * then keeps `meta.version` and `meta.lastModified` (RFC 7644 §3.5.2.1).
   */
  readonly changed: boolean;
}

/**
 * Applies a SCIM PATCH request body (RFC 7644 §3.5.2) to `resource`. Each operation is resolved
 * against the resource type's schemas into RFC 6902 operations, which fast-json-patch applies to a
 * private copy in order; the request is atomic: the first failing operation returns its error and
 * nothing is kept. Never mutates `resource`, never throws.
 *
 * The result still has to pass `validateResource(model, result, {operation: 'patch', existing})`
 * (types, required attributes), and uniqueness is the store's.
 */
export function applyPatch(model: ResourceModel, resource: ScimResource, body: unknown, options?: PatchOptions): Result<PatchResult> {
  const resolved = resolvePatchOptions(options);
  const operations = parsePatchRequest(body, resolved);
  if (!operations.ok) return operations;
  try {
    const doc = cloneJson(resource) as unknown as JsonObject;
    const ctx = { model, options: resolved, doc, touched: new Set<string>(), budget: { used: 0, limit: resolved.maxElementVisits } };
    for (const operation of operations.value) {
      const applied = applyOperation(ctx, operation);
      if (!applied.ok) return applied;
    }
    finalizeResource(model, doc, ctx.touched);
    return ok({ resource: doc as unknown as ScimResource, changed: hasChanged(resource, doc, ctx.touched) });
  } catch {
    // Only a defect can get here (every input problem is returned as data above).
    return err(httpError(500, 'The PATCH request could not be applied'));
  }
}

/**
 * Whether the patched copy says something the original did not: only the attributes the operations
 * wrote can differ (the rest is a copy), plus `schemas`. Unassigned values count as absent.
 */
function hasChanged(original: ScimResource, doc: JsonObject, touched: ReadonlySet<string>): boolean {
  if (!jsonEqual(original.schemas, doc.schemas)) return true;
  for (const key of touched) {
    const before = Object.prototype.hasOwnProperty.call(original, key) ? original[key] : undefined;
    const after = Object.prototype.hasOwnProperty.call(doc, key) ? doc[key] : undefined;
    if (!assignedEqual(before, after)) return true;
  }
  return false;
}
