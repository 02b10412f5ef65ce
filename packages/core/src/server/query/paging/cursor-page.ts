import { err, ok, type Result } from '../../../errors/result.js';
import { scimError } from '../../../errors/scim-error.js';
import type { AttrPath, Filter } from '../../../filter/ast.js';
import { printAttrPath, printFilter } from '../../../filter/print-filter.js';
import type { ScimResource } from '../../../schema/scim-resource.js';
import type { Exchange } from '../../request/exchange.js';
import { queryResources, storeCursorApplies, type TypeQuery } from '../query-resources.js';
import type { ServedType } from '../../config/server-context.js';
import { issueCursor, readCursor } from './cursor-token.js';
import { readIndexCursor } from './index-cursor.js';
import type { PaginationSettings } from './pagination-settings.js';

/** One RFC 9865 page: the resources, the total, and the cursors around it. */
export interface CursorPage {
  readonly totalResults: number;
  readonly resources: readonly ScimResource[];
  readonly nextCursor?: string;
  readonly previousCursor?: string;
}

/** What a cursor is bound to: the query it pages (RFC 9865 §2: follow-up requests repeat it). */
export interface CursorQuery {
  readonly filter?: Filter;
  readonly sortBy?: AttrPath;
  readonly sortOrder: 'ascending' | 'descending';
}

/**
 * A page by RFC 9865 cursor. `cursor` is `''` for the first page, else a cursor this server issued
 * for the same query. A store with `capabilities.cursor` that evaluates the query itself pages by
 * its keyset cursor (stable under concurrent inserts and deletes); otherwise the cursor carries the
 * next index, which is correct for a list that does not change during the walk but may skip or
 * repeat a resource when earlier ones are inserted or deleted meanwhile (docs/concepts/paging.md).
 * Either way the client sees one opaque, signed token bound to the query and the tenant.
 */
export async function cursorPage(
  exchange: Exchange,
  settings: PaginationSettings,
  type: ServedType,
  query: TypeQuery,
  bound: CursorQuery,
  cursor: string,
  count: number,
): Promise<Result<CursorPage>> {
  const binding = bindingOf(type.model.definition.name, bound, exchange.storeContext.tenant);
  const keyset = storeCursorApplies(exchange.context, { ...query, page: { startIndex: 1, count }, cursor: '' }, type);
  if (!keyset) {
    const at = await readIndexCursor(settings, binding, cursor);
    if (!at.ok) return at;
    const result = await queryResources(exchange.context, type, { ...query, page: { startIndex: at.value.startIndex, count } }, exchange.storeContext);
    if (result.declined !== undefined) return err(scimError('invalidFilter', result.declined));
    return ok({ totalResults: result.totalResults, resources: result.resources, ...(await at.value.around(result.resources.length, result.totalResults, count)) });
  }

  const position = cursor === '' ? undefined : await readCursor(settings, binding, cursor);
  if (position !== undefined && !position.ok) return position;
  const stored = position?.value;
  if (stored !== undefined && stored.kind !== 'store') return err(scimError('invalidCursor', 'The cursor is not valid for this query; start again without a cursor (RFC 9865 §2.1)'));
  const at = stored?.cursor;
  const issue = (next: string): Promise<string> => issueCursor(settings, binding, { kind: 'store', cursor: next });
  const result = await queryResources(exchange.context, type, { ...query, page: { startIndex: 1, count }, cursor: at ?? '' }, exchange.storeContext);
  if (result.declined !== undefined) return err(scimError('invalidFilter', result.declined));
  return ok({
    totalResults: result.totalResults,
    resources: result.resources,
    // RFC 9865 §2: never an empty nextCursor, and none for count=0 (it would lead nowhere); no previousCursor on the first page.
    ...(result.nextCursor === undefined || result.nextCursor === '' || count === 0 ? {} : { nextCursor: await issue(result.nextCursor) }),
    ...(result.previousCursor === undefined || result.previousCursor === '' || at === undefined ? {} : { previousCursor: await issue(result.previousCursor) }),
  });
}

/** What a cursor is bound to (RFC 9865 §2: follow-up requests repeat the query): where, filter, sort, tenant. */
export function bindingOf(where: string, query: CursorQuery, tenant: string | undefined): string {
  return JSON.stringify([
    where,
    query.filter === undefined ? '' : printFilter(query.filter),
    query.sortBy === undefined ? '' : printAttrPath(query.sortBy),
    query.sortOrder,
    tenant ?? '',
  ]);
}
