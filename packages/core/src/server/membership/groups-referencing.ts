import type { Filter } from '../../filter/ast.js';
import { compileFilter } from '../../filter/compile-filter.js';
import type { ScimResource } from '../../schema/scim-resource.js';
import type { StoreContext } from '../../store/scim-store.js';
import { queryResources } from '../query/query-resources.js';
import type { ServerContext } from '../config/server-context.js';
import type { Membership } from './membership.js';

/**
 * The groups whose `members` hold `id`: the store query `members.value eq "<id>"`, which the memory
 * store answers from an index and a SQL store can push down (one indexed row lookup), never a scan
 * of member lists in the core.
 */
export async function groupsReferencing(context: ServerContext, membership: Membership, id: string, ctx: StoreContext): Promise<readonly ScimResource[]> {
  const filter: Filter = { kind: 'compare', path: { attr: membership.members.name, subAttr: 'value' }, op: 'eq', value: id };
  // Compiled only if the store evaluates in memory: an indexed store answers from the filter alone.
  let compiled: ((resource: ScimResource) => boolean) | undefined;
  const matches = (resource: ScimResource): boolean => {
    if (compiled === undefined) {
      const result = compileFilter(filter, membership.group.model);
      compiled = result.ok ? result.value : () => false;
    }
    return compiled(resource);
  };
  const result = await queryResources(context, membership.group, { filter, matches }, ctx);
  return result.resources;
}
