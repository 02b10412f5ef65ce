import type { AttrPath, Filter } from '../../filter/ast.js';
import type { ScimResource } from '../../schema/scim-resource.js';
import type { TypeQuery } from './query-resources.js';

/**
 * Whether a filter or `sortBy` names `meta.location` (RFC 7643 §3.1). Stores keep resources
 * without it (it depends on the request's base URL), so such a query must run in memory on the
 * resources as served, as RFC 7644 §3.4.2 applies a filter to the resources as the service returns them.
 */
export function mentionsLocation(filter: Filter | undefined, sortBy: AttrPath | undefined): boolean {
  return (filter !== undefined && filterMentionsLocation(filter)) || (sortBy !== undefined && isLocation(sortBy));
}

function filterMentionsLocation(filter: Filter): boolean {
  switch (filter.kind) {
    case 'compare':
    case 'present':
      return isLocation(filter.path);
    case 'and':
    case 'or':
      return filterMentionsLocation(filter.left) || filterMentionsLocation(filter.right);
    case 'not':
      return filterMentionsLocation(filter.filter);
    case 'valuePath':
      // `meta[location co "x"]`: paths inside the brackets are relative to the bracketed attribute.
      return isLocation(filter.path) || (filter.path.attr.toLowerCase() === 'meta' && filter.path.subAttr === undefined);
  }
}

function isLocation(path: AttrPath): boolean {
  return path.attr.toLowerCase() === 'meta' && path.subAttr?.toLowerCase() === 'location';
}

/**
 * The same query run in memory over each resource as served (`locate` adds `meta.location`):
 * nothing is pushed to the store, which does not know the location. queryResources locates each
 * resource once, then filters and sorts the located forms: never once per comparison (a sort makes
 * n·log n comparisons of n resources).
 */
export function overServedForm(query: TypeQuery, locate: (resource: ScimResource) => ScimResource): TypeQuery {
  return { ...query, inMemory: true, served: locate };
}
