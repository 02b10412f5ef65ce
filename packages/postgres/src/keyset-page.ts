import type { ScimResource, StoreQueryResult } from '@scimkit/core';
import type { SqlClient } from './sql-client.js';
import type { SqlParams } from './sql-params.js';
import { orderBy, type SqlSort } from './sort-to-sql.js';

/** Where a cursor points: after (`n`) or before (`p`) the row with this sort key and sequence. */
interface Boundary {
  readonly direction: 'n' | 'p';
  readonly key: string | null;
  readonly seq: string;
}

interface KeysetQuery {
  /** `SELECT r.data…` and `FROM … WHERE tenant and type`, as the other queries use them. */
  readonly select: string;
  readonly from: string;
  readonly where: string;
  readonly sort: SqlSort;
  readonly params: SqlParams;
  readonly cursor: string;
  readonly count: number;
  /** The statement of `totalResults` when not `count(*)` of the matches (no filter: the type's maintained count). */
  readonly total?: { readonly text: string; readonly params: readonly unknown[] };
}

interface KeyedRow {
  data: Record<string, unknown>;
  members?: unknown[] | null;
  sort_key: string | null;
  seq: string;
}

/**
 * One keyset page (RFC 9865): the `count` resources after (or before) the cursor's sort key and
 * creation sequence, so a walk neither skips nor repeats a resource that exists throughout it,
 * whatever is created or deleted meanwhile. `''` (or a cursor this store cannot read) is the first
 * page. `totalResults` counts every match.
 */
export async function keysetPage(client: SqlClient, query: KeysetQuery, toResource: (row: KeyedRow) => ScimResource): Promise<StoreQueryResult> {
  const { sort, params } = query;
  const total = query.total ?? { text: `SELECT count(*) AS total ${query.from} AND (${query.where})`, params: params.values };
  const counted = await client.query<{ total: number | string }>(total.text, total.params);
  const totalResults = Number(counted.rows[0]?.total ?? 0);
  const count = Math.max(0, Math.floor(query.count));
  if (count === 0 || totalResults === 0) return { totalResults, resources: [] };

  const boundary = decodeCursor(query.cursor);
  const backward = boundary?.direction === 'p';
  const condition = boundary === undefined ? 'true' : keysetCondition(sort, boundary, params);
  const keyColumn = sort.key === undefined ? 'NULL::text' : `(${sort.key})::text`;
  const limit = params.add(count + 1);
  const rows = await client.query<KeyedRow>(
    `${query.select}, ${keyColumn} AS sort_key, r.seq::text AS seq ${query.from} AND (${query.where}) AND (${condition})
     ORDER BY ${orderBy(sort, backward)} LIMIT ${limit}`,
    params.values,
  );
  const more = rows.rows.length > count;
  const page = rows.rows.slice(0, count);
  if (backward) page.reverse();
  const first = page[0];
  const last = page[page.length - 1];
  // Forward: more after when the page overflowed, rows before whenever it started at a cursor.
  // Backward: the mirror image.
  const hasNext = backward ? true : more;
  const hasPrevious = backward ? more : boundary !== undefined;
  return {
    totalResults,
    resources: page.map(toResource),
    ...(hasNext && last !== undefined ? { nextCursor: encodeCursor({ direction: 'n', key: last.sort_key, seq: last.seq }) } : {}),
    ...(hasPrevious && first !== undefined ? { previousCursor: encodeCursor({ direction: 'p', key: first.sort_key, seq: first.seq }) } : {}),
  };
}

/**
 * The rows strictly after (`n`) or before (`p`) the boundary in the order of `orderBy(sort)`:
 * key ascending with missing keys last (descending: missing first), then creation sequence.
 */
function keysetCondition(sort: SqlSort, boundary: Boundary, params: SqlParams): string {
  const seq = params.add(boundary.seq);
  const after = boundary.direction === 'n';
  const seqTest = `r.seq ${after ? '>' : '<'} ${seq}::bigint`;
  if (sort.key === undefined) return seqTest;
  const key = `(${sort.key})`;
  // Where missing keys sit relative to present ones, in the direction of travel.
  const missingAhead = after !== sort.descending;
  if (boundary.key === null) {
    const tie = `(${key} IS NULL AND ${seqTest})`;
    return missingAhead ? tie : `(${tie} OR ${key} IS NOT NULL)`;
  }
  const value = `${params.add(boundary.key)}::${sort.type}`;
  const beyond = `${key} ${after !== sort.descending ? '>' : '<'} ${value}`;
  const tie = `(${key} = ${value} AND ${seqTest})`;
  return missingAhead ? `(${beyond} OR ${tie} OR ${key} IS NULL)` : `(${beyond} OR ${tie})`;
}

/** Unpadded base64url of the boundary: only URI unreserved characters (RFC 9865 §2). */
function encodeCursor(boundary: Boundary): string {
  return Buffer.from(JSON.stringify([boundary.direction, boundary.key, boundary.seq])).toString('base64url');
}

/** The boundary of a cursor this store made; undefined (the first page) for `''` or anything else. */
function decodeCursor(cursor: string): Boundary | undefined {
  if (cursor === '') return undefined;
  try {
    const [direction, key, seq] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if ((direction !== 'n' && direction !== 'p') || (key !== null && typeof key !== 'string') || typeof seq !== 'string' || !/^\d{1,19}$/.test(seq)) return undefined;
    return { direction, key, seq };
  } catch {
    return undefined;
  }
}
