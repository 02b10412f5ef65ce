import { err, ok, type Result } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import type { AttrPath, PatchPath } from '../filter/ast.js';
import { compileValueFilter } from '../filter/compile-value-filter.js';
import { DEFAULT_FILTER_LIMITS } from '../filter/filter-limits.js';
import { parseAttrPath } from '../filter/parse-attr-path.js';
import { parsePatchPath } from '../filter/parse-patch-path.js';
import { printAttrPath } from '../filter/print-filter.js';
import { isForbiddenKey } from '../schema/attribute-name.js';
import type { AttributeDefinition } from '../schema/attribute-definition.js';
import type { ResolvedAttribute, ResourceModel } from '../schema/resource-model.js';
import { findSubAttribute } from '../values/index.js';
import type { ResolvedPatchOptions } from './patch-options.js';
import type { ElementsTarget, PatchTarget } from './patch-target.js';
import { cachedTarget, rememberTarget } from './patch-target-cache.js';

const MATCH_ALL = (): boolean => true;

/**
 * `emails.value` without a filter: that sub-attribute of every element of the multi-valued
 * attribute (`resolved` names the sub-attribute; the target holds the whole attribute's keys).
 */
export function everyElement(resolved: ResolvedAttribute & { readonly subAttribute: AttributeDefinition }): ElementsTarget {
  return {
    kind: 'elements',
    resolved: Object.freeze({ ...resolved, target: resolved.attribute, keys: resolved.keys.slice(0, -1) }),
    matches: MATCH_ALL,
    subAttribute: resolved.subAttribute,
  };
}

/** True when a segment of the path is `__proto__`, `constructor` or `prototype`. */
function namesForbiddenKey(path: AttrPath): boolean {
  return [path.attr, path.subAttr ?? ''].some((part) => part.split(/[.:]/).some((segment) => isForbiddenKey(segment)));
}

/** The path grammar of RFC 7644 §3.5.2; a path without a value filter takes the cheaper attrPath parser. */
function parsePath(text: string, options: ResolvedPatchOptions): Result<PatchPath> {
  if (!text.includes('[') && text.length <= (options.pathLimits?.maxLength ?? DEFAULT_FILTER_LIMITS.maxLength)) {
    const simple = parseAttrPath(text);
    if (simple.ok) return ok({ attrPath: simple.value });
  }
  return parsePatchPath(text, options.pathLimits);
}

/**
 * Resolves an operation's `path` (RFC 7644 §3.5.2, Figure 7) against the resource type: schema
 * URNs, `schemas`, attribute paths (case-insensitive, optionally URN-qualified) and value paths.
 * A path naming no attribute of the resource type is a 400 invalidPath (with
 * `unknownAttributes: 'ignore'`, the operation is skipped, unless the name could reach a prototype).
 */
export function resolvePatchTarget(model: ResourceModel, path: string | undefined, options: ResolvedPatchOptions, at: string): Result<PatchTarget> {
  if (path === undefined) return RESOURCE;
  const cached = cachedTarget(model, path, options.pathLimits);
  if (cached !== undefined) return cached;
  const resolved = resolveUncached(model, path, options, at);
  // Only what resolves to a target is kept: errors and ignored paths depend on the options.
  if (resolved.ok && resolved.value.kind !== 'ignored') rememberTarget(model, path, options.pathLimits, Object.freeze({ ok: true, value: Object.freeze(resolved.value) }));
  return resolved;
}

const RESOURCE: Result<PatchTarget> = Object.freeze({ ok: true, value: Object.freeze({ kind: 'resource' }) });

function resolveUncached(model: ResourceModel, path: string, options: ResolvedPatchOptions, at: string): Result<PatchTarget> {
  const text = path.trim();
  const lower = text.toLowerCase();
  if (lower === model.core.id.toLowerCase()) return ok({ kind: 'resource' });
  for (const extension of model.extensions) {
    if (lower === extension.schema.id.toLowerCase()) return ok({ kind: 'extension', schema: extension.schema, required: extension.required });
  }
  if (lower === 'schemas') return ok({ kind: 'schemas' });

  const parsed = parsePath(text, options);
  if (!parsed.ok) return err(scimError('invalidPath', `${at}.path: ${parsed.error.detail}`));
  const { attrPath, valueFilter, subAttr } = parsed.value;

  const resolved = model.resolve(attrPath);
  if (resolved === undefined) {
    if (options.unknownAttributes === 'ignore' && !namesForbiddenKey(attrPath)) return ok({ kind: 'ignored' });
    return err(scimError('invalidPath', `${at}.path: "${printAttrPath(attrPath)}" is not an attribute of ${model.definition.name}`));
  }

  if (valueFilter === undefined) {
    const { subAttribute } = resolved;
    if (subAttribute !== undefined && resolved.attribute.multiValued) return ok(everyElement({ ...resolved, subAttribute }));
    return ok({ kind: 'attribute', resolved });
  }

  if (resolved.subAttribute !== undefined || !resolved.attribute.multiValued) {
    return err(scimError('invalidPath', `${at}.path: a value filter needs a multi-valued attribute; "${printAttrPath(attrPath)}" is not one`));
  }
  const matches = compileValueFilter(valueFilter, resolved.attribute);
  // Everything wrong in a path is a path error (RFC 7644 §3.12 invalidPath), the filter part included.
  if (!matches.ok) return err(scimError('invalidPath', `${at}.path: ${matches.error.detail}`));
  if (subAttr === undefined) return ok({ kind: 'elements', resolved, matches: matches.value, filter: valueFilter });
  const subAttribute = findSubAttribute(resolved.attribute, subAttr);
  if (subAttribute === undefined) {
    return err(scimError('invalidPath', `${at}.path: "${subAttr}" is not a sub-attribute of "${resolved.attribute.name}"`));
  }
  return ok({ kind: 'elements', resolved, matches: matches.value, filter: valueFilter, subAttribute });
}
