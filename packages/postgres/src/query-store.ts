import type { ScimResource, StoreQuery, StoreQueryResult } from '@scimkit/core';
import { filterToSql } from './filter-to-sql.js';
import { membersColumn } from './member-rows.js';
import type { SqlClient } from './sql-client.js';
import type { StoreTables } from './sql-names.js';
import { SqlParams } from './sql-params.js';
import { keysetPage } from './keyset-page.js';
import { orderBy, sortToSql } from './sort-to-sql.js';
import { fromStoredForm } from './stored-form.js';
import type { Prefetch } from './postgres-store.js';

interface Row {
  data: Record<string, unknown> | null;
  members?: unknown[] | null;
  referrers?: unknown;
  total?: number | string;
}

/**
 * One query: the filter as a parameterised WHERE, the sort as ORDER BY, the page as OFFSET/LIMIT.
 * A page is one statement (see pagedSql): the page's rows, then `totalResults`, which is counted
 * (`count(*)`, exact) only when the page itself cannot tell it. When the filter or the sort cannot
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
  const columns = `r.data${memberAttribute === undefined ? '' : `, ${membersColumn(t)}`}`;
  const select = `SELECT ${columns}${prefetch === undefined ? '' : `, ${prefetch.column('r.tenant', 'r.id')}`}`;
  const from = `FROM ${t.resources} r WHERE r.tenant = $1 AND r.resource_type = $2`;
  const toResource = (row: Row): ScimResource => {
    const resource = fromStoredForm(row.data as Record<string, unknown>, row.members, memberAttribute);
    prefetch?.keep(resource, row.referrers);
    return resource;
  };

  if (where === undefined || sort === undefined) {
    return inMemory(client, `SELECT ${columns} ${from} ORDER BY r.seq`, [tenant, resourceType], query, (row) => fromStoredForm(row.data as Record<string, unknown>, row.members, memberAttribute));
  }

  if (query.cursor !== undefined) {
    return keysetPage(client, { select, from, where, sort, params, cursor: query.cursor, count: query.count ?? 0 }, toResource);
  }
  const order = orderBy(sort);
  const paged = query.startIndex !== undefined || query.count !== undefined;
  if (!paged) {
    const text = `${select} ${from} AND (${where}) ORDER BY ${order}`;
    const rows = await client.query<Row>(text, params.values, name(text));
    return { totalResults: rows.rows.length, resources: rows.rows.map(toResource) };
  }
  const offset = Math.max(1, query.startIndex ?? 1) - 1;
  const limit = query.count === undefined ? undefined : Math.max(0, Math.floor(query.count));
  const count = `SELECT count(*) FROM ${t.resources} r WHERE r.tenant = $1 AND r.resource_type = $2 AND (${where})`;
  if (limit === 0) {
    const text = count.replace('count(*)', 'count(*) AS total');
    const counted = await client.query<{ total: number | string }>(text, params.values, name(text));
    return { totalResults: Number(counted.rows[0]?.total ?? 0), resources: [] };
  }
  const text = pagedSql({ select, from, where, order, count, offset, limit, params });
  const rows = await client.query<Row>(text, params.values, name(text));
  const first = rows.rows[0];
  const resources = rows.rows.filter((row) => row.data !== null).map(toResource);
  return { totalResults: Number(first?.total ?? 0), resources };
}

/**
 * One page and its `totalResults` in one statement, without a window over every match (which
 * pushes each matching row, JSON and all, through the window and rules out a top-N sort):
 * - the page is `ORDER BY … LIMIT … OFFSET …` alone (an index scan or a top-N heapsort), numbered
 *   after the limit so the outer query keeps its order;
 * - the total is the page's own size when the page is not full (`userName eq` finds 0 or 1 row:
 *   nothing else is read), else an exact `count(*)` of the matches, evaluated only in that case
 *   (PostgreSQL runs an uncorrelated subquery in a CASE branch only when the branch is taken);
 * - an empty page still returns one row (data NULL) to carry the total.
 * Member and referrer columns are computed for the page's rows only.
 */
function pagedSql(q: {
  select: string;
  from: string;
  where: string;
  order: string;
  count: string;
  offset: number;
  limit: number | undefined;
  params: SqlParams;
}): string {
  const skip = q.params.add(q.offset);
  const limit = q.limit === undefined ? 'ALL' : q.params.add(q.limit);
  const size = '(SELECT count(*) FROM page)';
  // RFC 7644 §3.4.2.4: totalResults counts every match, not the page.
  const total =
    `CASE WHEN ${size} = 0 THEN ${q.offset === 0 ? '0' : `(${q.count})`}` +
    (q.limit === undefined ? ` ELSE ${skip}::bigint + ${size} END` : ` WHEN ${size} < ${limit}::bigint THEN ${skip}::bigint + ${size} ELSE (${q.count}) END`);
  return `WITH page AS MATERIALIZED (
      SELECT p.*, row_number() OVER () AS pos FROM (SELECT r.tenant, r.resource_type, r.id, r.data ${q.from} AND (${q.where}) ORDER BY ${q.order} LIMIT ${limit} OFFSET ${skip}) p
    )
    ${q.select}, ${total} AS total FROM (VALUES (1)) AS one(x) LEFT JOIN page r ON true ORDER BY r.pos`;
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
