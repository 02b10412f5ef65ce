import { sortResources } from '../filter/compile-sort.js';
import type { ScimResource } from '../schema/scim-resource.js';
import type { InsertionLog } from './insertion-log.js';
import { decodeCursor, encodeCursor, sortSkeleton, type CursorPosition } from './memory-cursor.js';
import type { StoreQuery, StoreQueryResult } from './scim-store.js';

/** What a keyset page needs from the table. */
export interface CursorSource {
  readonly log: InsertionLog;
  readonly size: number;
  get(id: string): ScimResource | undefined;
  all(): ScimResource[];
}

/** A cursor that asks for the first page again (after sequence -1, no sort key). */
const FIRST_PAGE: CursorPosition = { direction: 'after', seq: -1 };

/**
 * One keyset page (RFC 9865) of the memory store: ordered by the query's sort, ties and unsorted
 * queries by creation order (the insertion sequence, which every resource keeps for life). A cursor
 * names a position in that order, not a resource, so the page after it is the same whether or not
 * the resource it was taken from still exists. `matching` is the filter's matches in creation
 * order (undefined: no filter). An empty or malformed cursor, or one taken from a query with a
 * different sort, is the first page.
 */
export function pageByCursor(table: CursorSource, query: StoreQuery, matching: ScimResource[] | undefined): StoreQueryResult {
  const count = Math.max(0, query.count ?? Number.POSITIVE_INFINITY);
  const compare = query.sort === undefined ? undefined : query.semantics.compare;
  let position = decodeCursor(query.cursor ?? '');
  if (compare !== undefined && position?.key === undefined) position = undefined;
  if (compare === undefined && matching === undefined) return logPage(table, position, count);

  const seq = (resource: ScimResource): number => table.log.seq(resource.id) ?? -1;
  // Matches and `all()` come in creation order and Array.prototype.sort is stable: ties stay in it.
  const rows = compare === undefined ? (matching as ScimResource[]) : sortResources(matching ?? table.all(), compare);
  const totalResults = rows.length;
  if (count === 0) return { totalResults, resources: [] };
  const at = (pos: CursorPosition, row: ScimResource): number => (compare !== undefined && pos.key !== undefined ? compare(pos.key, row) : 0) || pos.seq - seq(row);
  /** Index of the first row that `test` accepts, rows being ordered so `test` goes false → true. */
  const first = (test: (row: ScimResource) => boolean): number => {
    let low = 0;
    let high = rows.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (test(rows[middle] as ScimResource)) high = middle;
      else low = middle + 1;
    }
    return low;
  };
  let start: number;
  let end: number;
  if (position === undefined) {
    start = 0;
    end = Math.min(rows.length, count);
  } else if (position.direction === 'after') {
    const pos = position;
    start = first((row) => at(pos, row) < 0);
    end = Math.min(rows.length, start + count);
  } else {
    const pos = position;
    end = first((row) => at(pos, row) <= 0);
    start = Math.max(0, end - count);
  }
  const resources = rows.slice(start, end);
  const positionOf = (row: ScimResource, direction: CursorPosition['direction']): CursorPosition => {
    const key = compare !== undefined && query.sort !== undefined ? sortSkeleton(row, query.sort, query.semantics) : undefined;
    return { direction, seq: seq(row), ...(key === undefined ? {} : { key }) };
  };
  const firstRow = resources[0];
  const lastRow = resources[resources.length - 1];
  let next: CursorPosition | undefined;
  let previous: CursorPosition | undefined;
  if (firstRow !== undefined && lastRow !== undefined) {
    if (end < rows.length) next = positionOf(lastRow, 'after');
    if (start > 0) previous = positionOf(firstRow, 'before');
  } else if (position !== undefined) {
    // An empty page: everything after (or before) the position went away during the walk.
    if (position.direction === 'after' && start > 0) previous = { ...position, direction: 'before' };
    if (position.direction === 'before' && rows.length > 0) next = FIRST_PAGE;
  }
  return withCursors({ totalResults, resources }, next, previous);
}

/** The unsorted, unfiltered page, read from the insertion log without materializing the table. */
function logPage(table: CursorSource, position: CursorPosition | undefined, count: number): StoreQueryResult {
  const totalResults = table.size;
  if (count === 0) return { totalResults, resources: [] };
  const entries: [string, number][] = [];
  const backward = position?.direction === 'before';
  const source = backward ? table.log.before(position.seq) : table.log.after(position?.seq ?? -1);
  for (const entry of source) {
    if (entries.length >= count) break;
    entries.push(entry);
  }
  if (backward) entries.reverse();
  const resources = entries.map(([id]) => table.get(id) as ScimResource);
  const firstSeq = entries[0]?.[1];
  const lastSeq = entries[entries.length - 1]?.[1];
  const exists = (walk: Generator<[string, number]>): boolean => walk.next().done !== true;
  let next: CursorPosition | undefined;
  let previous: CursorPosition | undefined;
  if (firstSeq !== undefined && lastSeq !== undefined) {
    if (exists(table.log.after(lastSeq))) next = { direction: 'after', seq: lastSeq };
    if (exists(table.log.before(firstSeq))) previous = { direction: 'before', seq: firstSeq };
  } else if (position !== undefined) {
    if (!backward && exists(table.log.before(position.seq))) previous = { direction: 'before', seq: position.seq };
    if (backward && totalResults > 0) next = FIRST_PAGE;
  }
  return withCursors({ totalResults, resources }, next, previous);
}

function withCursors(result: StoreQueryResult, next: CursorPosition | undefined, previous: CursorPosition | undefined): StoreQueryResult {
  return {
    ...result,
    ...(next === undefined ? {} : { nextCursor: encodeCursor(next) }),
    ...(previous === undefined ? {} : { previousCursor: encodeCursor(previous) }),
  };
}
