import type { ScimResource, StoreQuery, StoreQueryResult } from '@scimkit/core';
import { filterToSql } from './filter-to-sql.js';
import { membersColumn } from './member-rows.js';
import type { SqlClient } from './sql-client.js';
import type { StoreTables } from './sql-names.js';
import { QueryShapes, type Translation } from './query-shapes.js';
import type { SqlParams } from './sql-params.js';
import { indexedFilter, singleLookup } from './indexed-filter.js';
import { keysetPage } from './keyset-page.js';
import { matchedPage } from './matched-page.js';
import { countSql } from './resource-counts.js';
import { orderBy, sortToSql, type SqlSort } from './sort-to-sql.js';
import { fromStoredForm } from './stored-form.js';
import type { Prefetch } from './postgres-store.js';

interface Row {
  data: Record<string, unknown> | null;
  members?: unknown[] | null;
  referrers?: unknown;
}

/**
 * One query: the filter as a parameterised WHERE, the sort as ORDER BY, the page as OFFSET/LIMIT.
 * A lookup before a write (singleLookup: an `eq` on `userName`, `externalId` or `displayName`) is
 * first read as a probe: `… WHERE … LIMIT 2`, in no order, no OFFSET, no count. One row or none is
 * every match there is, so the page (whatever startIndex, count and sortBy ask: one resource is in
 * any order) and its exact total follow from it, from one snapshot; only a probe that finds two
 * rows is dropped for the ordered page below (a second statement: the price of a lookup that finds
 * several). Against the ordered page statement it spares PostgreSQL the sort and limit nodes it sets
 * up on every execution, and two parameters; it assumes no uniqueness (the `userName` lookup
 * compares `lower()` of the database, the unique key the core's comparisonKey, which may differ
 * outside ASCII). A page of a filter no index answers is one statement with its total, from one scan of the
 * matches (matchedPage). Any other page is one statement (`ORDER BY … LIMIT … OFFSET …` alone: an
 * index scan that stops at the page, or a top-N sort), then `totalResults`, which is counted
 * (`count(*)`, exact) in a second statement only when the page itself cannot tell it (see
 * pageTotal; without a filter it is the type's maintained count, schema version 8). When the filter or the sort cannot
 * be translated, the type's resources are read in creation order and finished in memory with the
 * core's predicate and comparator, which is always right, only slower. With `prefetch`
 * (`StoreContext.referrers`) each returned row also carries its referrers.
 */
export async function queryStore(
  client: SqlClient,
  t: StoreTables,
  resourceType: string,
  query: StoreQuery,
  tenant: string,
  memberAttribute: string | undefined,
  prefetch?: Prefetch,
  name: (text: string) => string | undefined = () => undefined,
  shapes: QueryShapes = new QueryShapes(0),
): Promise<StoreQueryResult> {
  // No named closures here (one allocation each per query): helpers below take what they need.
  const translation = shapes.translate(query, tenant, resourceType, `${memberAttribute ?? ''}\u0000${prefetch?.shape ?? ''}`, (params) => translate(query, t, memberAttribute, params));
  const { where, sort, params } = translation;
  const columns = columnsOf(t, memberAttribute);
  const from = `FROM ${t.resources} r WHERE r.tenant = $1 AND r.resource_type = $2`;

  if (where === undefined || sort === undefined) {
    return inMemory(client, `SELECT ${columns} ${from} ORDER BY r.seq`, [tenant, resourceType], query, (row) => fromStoredForm(row.data as Record<string, unknown>, row.members, memberAttribute));
  }

  if (query.cursor !== undefined) {
    // Without a filter, the total is the type's maintained count (schema version 8).
    const total = query.filter === undefined ? { total: { text: countSql(t), params: [tenant, resourceType] } } : {};
    return keysetPage(client, { select: `SELECT ${returnedOf(columns, prefetch)}`, from, where, sort, params, cursor: query.cursor, count: query.count ?? 0, ...total }, (row) => resourceOf(row, memberAttribute, prefetch));
  }
  const offset = Math.max(1, query.startIndex ?? 1) - 1;
  const limit = query.count === undefined ? undefined : Math.max(0, Math.floor(query.count));
  if (query.filter !== undefined && singleLookup(query.filter)) {
    // A lookup before a write (`userName eq`): the matches, at most two, in no order (see above).
    const { text, name: named } = QueryShapes.statement(translation, 'probe', () => `SELECT ${returnedOf(columns, prefetch)} ${from} AND (${where}) LIMIT 2`, name);
    const rows = (await client.query<Row>(text, params.values, named)).rows;
    if (rows.length < 2) {
      const [row] = rows;
      return { totalResults: rows.length, resources: row !== undefined && offset === 0 && limit !== 0 ? [resourceOf(row, memberAttribute, prefetch)] : [] };
    }
  }
  const paged = query.startIndex !== undefined || query.count !== undefined;
  if (!paged) {
    const { text, name: named } = QueryShapes.statement(translation, 'all', () => `SELECT ${returnedOf(columns, prefetch)} ${from} AND (${where}) ORDER BY ${orderBy(sort)}`, name);
    const rows = await client.query<Row>(text, params.values, named);
    return { totalResults: rows.rows.length, resources: rows.rows.map((row) => resourceOf(row, memberAttribute, prefetch)) };
  }
  if (query.filter !== undefined && !indexedFilter(query.filter, memberAttribute)) {
    return matchedPage(client, { columns: returnedOf(columns, prefetch), table: t.resources, where, sort, params, offset, limit }, name, (row) => resourceOf(row, memberAttribute, prefetch));
  }
  if (limit === 0) return { totalResults: await countOf(client, t, query.filter !== undefined, translation, from, name), resources: [] };
  const values = [...params.values, offset, ...(limit === undefined ? [] : [limit])];
  // The page's rows first (an index scan that stops at the page, or a top-N sort), then the member
  // and referrer columns for those rows only: in the same query level they would be computed for
  // every row the OFFSET skips too.
  const { text, name: named } = QueryShapes.statement(translation, limit === undefined ? 'page' : 'page+limit', () => {
    const order = orderBy(sort);
    const page = `SELECT r.tenant, r.resource_type, r.id, r.seq, r.data ${from} AND (${where}) ORDER BY ${order} ${limit === undefined ? '' : `LIMIT $${values.length} `}OFFSET $${params.values.length + 1}`;
    return `SELECT ${returnedOf(columns, prefetch)} FROM (${page}) r ORDER BY ${order}`;
  }, name);
  const rows = await client.query<Row>(text, values, named);
  const resources = rows.rows.map((row) => resourceOf(row, memberAttribute, prefetch));
  return { totalResults: await pageTotal(offset, limit, resources.length, () => countOf(client, t, query.filter !== undefined, translation, from, name)), resources };
}

/** The filter and sort of `query` in SQL, their parameters added to `params` (see QueryShapes.translate). */
function translate(query: StoreQuery, t: StoreTables, memberAttribute: string | undefined, params: SqlParams): { where: string | undefined; sort: SqlSort | undefined } {
  let aliases = 0;
  const scope = {
    params,
    semantics: query.semantics,
    tables: t,
    tenant: '$1',
    resourceType: '$2',
    ...(memberAttribute === undefined ? {} : { memberAttribute }),
    alias: () => `a${++aliases}`,
  };
  return { where: query.filter === undefined ? 'true' : filterToSql(query.filter, scope), sort: sortToSql(query.sort, scope) };
}

/** The stored columns of a row over `r`: the document, and the members column where the type keeps member rows. */
function columnsOf(t: StoreTables, memberAttribute: string | undefined): string {
  return `r.data${memberAttribute === undefined ? '' : `, ${membersColumn(t)}`}`;
}

/** The columns a returned row carries: the stored ones, and the referrers column with `prefetch`. */
function returnedOf(columns: string, prefetch: Prefetch | undefined): string {
  return `${columns}${prefetch === undefined ? '' : `, ${prefetch.column('r.tenant', 'r.id')}`}`;
}

/** A returned row as a resource, its referrers kept with it (prefetch). */
function resourceOf(row: Row, memberAttribute: string | undefined, prefetch: Prefetch | undefined): ScimResource {
  const resource = fromStoredForm(row.data as Record<string, unknown>, row.members, memberAttribute);
  prefetch?.keep(resource, row.referrers);
  return resource;
}

/**
 * The exact number of the query's matches, as a statement of its own: without a filter, the type's
 * maintained count (schema version 8: at most 64 rows, whatever the number of resources), else
 * `count(*)` of the matches.
 */
async function countOf(client: SqlClient, t: StoreTables, filtered: boolean, translation: Translation, from: string, name: (text: string) => string | undefined): Promise<number> {
  const { text, name: named } = QueryShapes.statement(translation, 'count', () => (filtered ? `SELECT count(*) AS total ${from} AND (${translation.where})` : countSql(t)), name);
  const params = filtered ? translation.params.values : translation.params.values.slice(0, 2);
  return Number((await client.query<{ total: number | string }>(text, params, named)).rows[0]?.total ?? 0);
}

/**
 * `totalResults` of a page (RFC 7644 §3.4.2.4: every match, not the page), from the page itself
 * when it can tell: a page that is not full ends the matches, so the total is what precedes it plus
 * its size (`userName eq` reads nothing more). Only a full page, or an empty one past the start,
 * costs a `count(*)` of the matches, as a statement of its own: folded into the page's statement
 * (a window `count(*) OVER ()`, or a CTE) it pushed every match, document and all, through the
 * count and ruled out a top-N sort or an index scan that stops at the page. A full page's total is
 * at least what the page shows (the count runs in a later snapshot: a delete in between).
 */
async function pageTotal(offset: number, limit: number | undefined, size: number, counted: () => Promise<number>): Promise<number> {
  if (size > 0 && (limit === undefined || size < limit)) return offset + size;
  if (size === 0 && offset === 0) return 0;
  const total = await counted();
  return size === 0 ? total : Math.max(total, offset + size);
}

async function inMemory(
  client: SqlClient,
  sql: string,
  params: readonly unknown[],
  query: StoreQuery,
  toResource: (row: Row) => ScimResource,
): Promise<StoreQueryResult> {
  const rows = await client.query<Row>(sql, params);
  let resources = rows.rows.map(toResource).filter(query.semantics.matches);
  if (query.sort !== undefined && query.semantics.compare !== undefined) resources = resources.sort(query.semantics.compare);
  const totalResults = resources.length;
  const count = Math.max(0, query.count ?? Number.POSITIVE_INFINITY);
  if (query.cursor !== undefined) return offsetPage(resources, query.cursor, count);
  const start = Math.max(1, query.startIndex ?? 1) - 1;
  return { totalResults, resources: resources.slice(start, start + count) };
}

/**
 * A cursor page over resources finished in memory (a filter or sort SQL cannot express): the cursor
 * is an offset, so unlike the keyset cursors it may skip or repeat under concurrent changes.
 */
function offsetPage(resources: readonly ScimResource[], cursor: string, count: number): StoreQueryResult {
  const decoded = /^o(\d{1,9})$/.exec(cursor);
  const start = decoded === null ? 0 : Math.min(Number(decoded[1]), resources.length);
  const end = start + count;
  return {
    totalResults: resources.length,
    resources: resources.slice(start, end),
    ...(count > 0 && end < resources.length ? { nextCursor: `o${end}` } : {}),
    ...(count > 0 && start > 0 ? { previousCursor: `o${Math.max(0, start - count)}` } : {}),
  };
}
