import type { Filter } from '@scimkit/core';

/**
 * The core attributes with a lookup index of their own (schema version 1: `userName`, `externalId`,
 * `displayName`, on the expression `eq` compares), lower-cased. `members.value` has the members
 * table's member index. An `eq` on one of these three is also the lookup an identity provider makes
 * before it writes (see singleLookup): it expects one resource or none.
 */
const INDEXED = new Set(['username', 'externalid', 'displayname']);

/**
 * Whether an index finds the matches of `filter` (an `eq` on an indexed attribute, alone or as a
 * conjunct): the few rows an identity provider's lookup returns, read without a scan. Such a page
 * is read on its own (and tells its total when it is not full); any other filter reads every row of
 * the type for its count anyway, so its page and count share one scan (see matchedPage).
 */
export function indexedFilter(filter: Filter, memberAttribute: string | undefined): boolean {
  return someConjunct(filter, memberAttribute, true);
}

/**
 * Whether `filter` is (or has as a conjunct) an `eq` on `userName`, `externalId` or `displayName`:
 * the lookup an identity provider makes before a write, which finds one resource or none. Such a
 * query is first read as a probe of at most two rows in no order (lookupProbe in query-store.ts);
 * only when it finds two does the ordered page run. Nothing here assumes the attribute is unique:
 * the probe itself tells whether the matches are at most one.
 */
export function singleLookup(filter: Filter): boolean {
  return someConjunct(filter, undefined, false);
}

function someConjunct(filter: Filter, memberAttribute: string | undefined, members: boolean): boolean {
  // A conjunction is a left-nested chain: its operands without recursion.
  let current = filter;
  while (current.kind === 'and') {
    if (indexedLookup(current.right, memberAttribute, members)) return true;
    current = current.left;
  }
  return indexedLookup(current, memberAttribute, members);
}

function indexedLookup(filter: Filter, memberAttribute: string | undefined, members: boolean): boolean {
  if (filter.kind !== 'compare' || filter.op !== 'eq' || typeof filter.value !== 'string') return false;
  const { uri, attr, subAttr } = filter.path;
  if (uri !== undefined && !uri.startsWith('urn:ietf:params:scim:schemas:core:2.0:')) return false;
  const name = attr.toLowerCase();
  if (subAttr === undefined) return INDEXED.has(name);
  return members && memberAttribute !== undefined && name === memberAttribute.toLowerCase() && subAttr.toLowerCase() === 'value';
}
