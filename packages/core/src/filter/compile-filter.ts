import { err, ok, type Result } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import type { ResourceModel } from '../schema/resource-model.js';
import type { ScimResource } from '../schema/scim-resource.js';
import type { ValueTest } from './any-at.js';
import type { Filter } from './ast.js';
import { AttributeUsage, compileInScope } from './compile-node.js';
import { resourceScope } from './filter-scope.js';

/** A compiled filter: true when the resource matches. */
export type ResourcePredicate = (resource: ScimResource) => boolean;

/**
 * Compiles a filter AST into a predicate over stored resources (RFC 7644 §3.4.2.2), resolving every
 * attribute once, against the schema, at compile time: string comparison by each attribute's
 * `caseExact`, dateTime as instants, numbers numerically, any-match over multi-valued attributes, `pr`
 * as "has a non-empty value", `[…]` conditions on one and the same element.
 *
 * With several resource types (server-root search) the predicate dispatches on `meta.resourceType`;
 * an attribute known to only some types is false on the others. Never throws: an attribute unknown to
 * every type, a `returned: never` attribute, or an operator or value unfit for the attribute's type is a
 * 400 invalidFilter.
 */
export function compileFilter(filter: Filter, models: ResourceModel | readonly ResourceModel[]): Result<ResourcePredicate> {
  const list: readonly ResourceModel[] = isModelList(models) ? models : [models];
  const types = list.map((m) => m.definition.name).join(' or ');
  const usage = new AttributeUsage(list.length > 1 ? ` (not an attribute of ${types})` : '');
  const compiled: { model: ResourceModel; test: ValueTest }[] = [];
  for (const model of list) {
    const test = compileInScope(filter, resourceScope(model), usage);
    if (!test.ok) return test;
    compiled.push({ model, test: test.value });
  }
  const unknown = usage.firstUnknown();
  if (unknown !== undefined || compiled.length === 0) {
    return err(scimError('invalidFilter', `Invalid filter: ${unknown ?? 'no resource type to search'}`));
  }
  const only = compiled.length === 1 ? compiled[0] : undefined;
  if (only !== undefined) return ok(only.test as ResourcePredicate);
  const byType = new Map<string, ValueTest>();
  for (const { model, test } of compiled) {
    byType.set(model.definition.name, test);
    if (!byType.has(model.definition.id)) byType.set(model.definition.id, test);
  }
  return ok((resource) => {
    const type = (resource as { meta?: { resourceType?: unknown } } | null)?.meta?.resourceType;
    const test = typeof type === 'string' ? byType.get(type) : undefined;
    return test !== undefined && test(resource);
  });
}

function isModelList(models: ResourceModel | readonly ResourceModel[]): models is readonly ResourceModel[] {
  return Array.isArray(models);
}

