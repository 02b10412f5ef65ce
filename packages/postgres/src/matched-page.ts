import type { ScimResource, StoreQueryResult } from '@scimkit/core';
import type { SqlClient } from './sql-client.js';
import type { SqlParams } from './sql-params.js';
import type { SqlSort } from './sort-to-sql.js';

/** A filtered page: the filter and sort in SQL, the page's bounds, and the columns each returned row carries. */
export interface MatchedPageQuery {
  /** The columns of a returned row over `r` (`r.data`, the members and referrers columns). */
  readonly columns: string;
  /** The resources table. */
  readonly table: string;
  readonly where: string;
  readonly sort: SqlSort;
  readonly params: SqlParams;
  readonly offset: number;
  /** Undefined: every match from `offset` on. */
  readonly limit: number | undefined;
}

interface PageRow {
  total: number | string;
  data: Record<string, unknown> | null;
  members?: unknown[] | null;
  referrers?: unknown;
}

/**
 * A page of a filtered query and its exact `totalResults` (RFC 7644 §3.4.2.4) from one scan of the
 * matches, in one statement. A filter no index answers reads every row of the type, and so does the
 * count of its matches: as two statements (the page, then `count(*)`) the scan ran twice, and as a
 * window over the page's rows (`count(*) OVER ()`) every match went through it with its document,
 * ruling out a top-N sort. Here the matches are kept narrow (their row address, creation sequence
 * and sort key, a materialized CTE), counted, and ordered by a top-N sort; only the page's rows are
 * read back, by their address (a TID scan: the statement's snapshot keeps the row versions it
 * matched), with their documents and computed columns. Total and page come from one snapshot.
 */
export async function matchedPage(client: SqlClient, query: MatchedPageQuery, name: (text: string) => string | undefined, toResource: (row: PageRow & { data: Record<string, unknown> }) => ScimResource): Promise<StoreQueryResult> {
  const { sort, params } = query;
  const values = [...params.values, query.offset, ...(query.limit === undefined ? [] : [query.limit])];
  const offset = `$${params.values.length + 1}`;
  const limit = query.limit === undefined ? '' : ` LIMIT $${values.length}`;
  const key = sort.key === undefined ? '' : `, ${sort.key} AS sort_key`;
  const order = (of: string): string =>
    sort.key === undefined ? `${of}.seq` : `${of}.sort_key ${sort.descending ? 'DESC NULLS FIRST' : 'ASC NULLS LAST'}, ${of}.seq`;
  const text = `WITH scim_matches AS MATERIALIZED (SELECT r.ctid, r.seq${key} FROM ${query.table} r WHERE r.tenant = $1 AND r.resource_type = $2 AND (${query.where})),
    scim_page AS (SELECT * FROM scim_matches m ORDER BY ${order('m')}${limit} OFFSET ${offset})
    SELECT scim_total.n AS total, ${query.columns}
    FROM (SELECT count(*) AS n FROM scim_matches) scim_total
    LEFT JOIN (scim_page p JOIN ${query.table} r ON r.ctid = p.ctid) ON true
    ORDER BY ${order('p')}`;
  const rows = (await client.query<PageRow>(text, values, name(text))).rows;
  const resources: ScimResource[] = [];
  for (const row of rows) if (row.data !== null) resources.push(toResource(row as PageRow & { data: Record<string, unknown> }));
  return { totalResults: Number(rows[0]?.total ?? 0), resources };
}
