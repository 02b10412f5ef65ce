import type { ScimResource, StoreQuery, StoreQueryResult } from '@scimkit/core';
import { filterToSql } from './filter-to-sql.js';
import { membersColumn } from './member-rows.js';
import type { SqlClient } from './sql-client.js';
import type { StoreTables } from './sql-names.js';
import { SqlParams } from './sql-params.js';
import { keysetPage } from './keyset-page.js';
import { orderBy, sortToSql } from './sort-to-sql.js';
import { fromStoredForm } from './stored-form.js';

interface Row {
  data: Record<string, unknown>;
  members?: unknown[] | null;
  total?: number | string;
}

/**
 * One query: the filter as a parameterised WHERE, the sort as ORDER BY, the page as OFFSET/LIMIT,
 * and `totalResults` as a window count in the same statement. When the filter or the sort cannot be
 * translated, the type's resources are read in creation order and finished in memory with the
 * core's predicate and comparator, which is always right, only slower.
 */
export async function queryStore(
  client: SqlClient,
  t: StoreTables,
  resourceType: string,
  query: StoreQuery,
  tenant: string,
  memberAttribute: string | undefined,
): Promise<StoreQueryResult> {
  const params = new SqlParams([tenant, resourceType]);
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
  const where = query.filter === undefined ? 'true' : filterToSql(query.filter, scope);
  const sort = sortToSql(query.sort, scope);
  const select = `SELECT r.data${memberAttribute === undefined ? '' : `, ${membersColumn(t)}`}`;
  const from = `FROM ${t.resources} r WHERE r.tenant = $1 AND r.resource_type = $2`;
  const toResource = (row: Row): ScimResource => fromStoredForm(row.data, row.members, memberAttribute);

  if (where === undefined || sort === undefined) return inMemory(client, `${select} ${from} ORDER BY r.seq`, [tenant, resourceType], query, toResource);

  if (query.cursor !== undefined) {
    return keysetPage(client, { select, from, where, sort, params, cursor: query.cursor, count: query.count ?? 0 }, toResource);
  }
  const order = orderBy(sort);
  const paged = query.startIndex !== undefined || query.count !== undefined;
  if (!paged) {
    const rows = await client.query<Row>(`${select} ${from} AND (${where}) ORDER BY ${order}`, params.values);
    return { totalResults: rows.rows.length, resources: rows.rows.map(toResource) };
  }
  const offset = Math.max(1, query.startIndex ?? 1) - 1;
  const limit = query.count === undefined ? 'ALL' : params.add(Math.max(0, Math.floor(query.count)));
  const skip = params.add(offset);
  const rows = await client.query<Row>(`${select}, count(*) OVER () AS total ${from} AND (${where}) ORDER BY ${order} LIMIT ${limit} OFFSET ${skip}`, params.values);
  const first = rows.rows[0];
  let totalResults: number;
  if (first !== undefined) totalResults = Number(first.total);
  else {
    // A page past the end (or count=0) has no row to carry the count.
    const counted = await client.query<{ total: number | string }>(`SELECT count(*) AS total ${from} AND (${where})`, params.values.slice(0, params.values.length - (limit === 'ALL' ? 1 : 2)));
    totalResults = Number(counted.rows[0]?.total ?? 0);
  }
  return { totalResults, resources: rows.rows.map(toResource) };
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
