import { ScimProtocolError } from './errors.js';
import type { ListResponse } from './resources.js';

/** How to page: by `startIndex` (RFC 7644 §3.4.2.4) or by cursor (RFC 9865); `auto` asks `/ServiceProviderConfig`. */
export type PagingMethod = 'index' | 'cursor' | 'auto';

/** One page of a list or search. */
export interface Page<T> {
  readonly resources: T[];
  readonly totalResults: number;
  readonly startIndex?: number;
  readonly itemsPerPage?: number;
  readonly nextCursor?: string;
  readonly previousCursor?: string;
}

/** Where a page starts: an index or a cursor ('' for the first cursor page, RFC 9865 §2.1). */
export type PagePosition = { readonly startIndex: number } | { readonly cursor: string };

export type FetchPage<T> = (position: PagePosition, count: number | undefined) => Promise<ListResponse<T>>;

/**
 * Every result of a list or search, one page request at a time: `for await (const user of paged)`
 * walks all of them, `pages()` yields the pages, `toArray()` collects. Index paging moves
 * `startIndex` by what each page held until `totalResults`; cursor paging follows `nextCursor`
 * until a page has none (RFC 9865 §2.2).
 */
export class Paged<T> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: FetchPage<T>,
    private readonly method: () => Promise<'index' | 'cursor'>,
    private readonly pageSize: number | undefined,
    private readonly startIndex: number = 1,
  ) {}

  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    const method = await this.method();
    if (method === 'cursor') {
      const seen = new Set<string>();
      let cursor = '';
      for (;;) {
        const page = toPage(await this.fetchPage({ cursor }, this.pageSize));
        yield page;
        if (page.nextCursor === undefined || page.nextCursor === '') return;
        if (seen.has(page.nextCursor)) throw new ScimProtocolError(`The server answered the same nextCursor twice (${page.nextCursor}): paging would never end`);
        seen.add(page.nextCursor);
        cursor = page.nextCursor;
      }
    }
    let startIndex = this.startIndex;
    for (;;) {
      const page = toPage(await this.fetchPage({ startIndex }, this.pageSize));
      yield page;
      startIndex += page.resources.length;
      if (page.resources.length === 0 || startIndex - 1 >= page.totalResults) return;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.resources;
  }

  /** Every result, or the first `limit`: no page is requested beyond the one that completes it. */
  async toArray(limit = Infinity): Promise<T[]> {
    const out: T[] = [];
    if (limit <= 0) return out;
    for await (const item of this) {
      out.push(item);
      if (out.length >= limit) break;
    }
    return out;
  }
}

function toPage<T>(body: ListResponse<T>): Page<T> {
  if (typeof body !== 'object' || body === null || typeof body.totalResults !== 'number') {
    throw new ScimProtocolError('Expected a ListResponse with totalResults (RFC 7644 §3.4.2)');
  }
  if (body.Resources !== undefined && !Array.isArray(body.Resources)) throw new ScimProtocolError('ListResponse.Resources is not an array');
  return {
    resources: body.Resources ?? [],
    totalResults: body.totalResults,
    ...(body.startIndex === undefined ? {} : { startIndex: body.startIndex }),
    ...(body.itemsPerPage === undefined ? {} : { itemsPerPage: body.itemsPerPage }),
    ...(body.nextCursor === undefined ? {} : { nextCursor: body.nextCursor }),
    ...(body.previousCursor === undefined ? {} : { previousCursor: body.previousCursor }),
  };
}
