import { err, ok, type Result } from '../../errors/result.js';
import { scimError } from '../../errors/scim-error.js';
import type { AttrPath, Filter } from '../../filter/ast.js';
import { parseAttrPath } from '../../filter/parse-attr-path.js';
import { parseFilter } from '../../filter/parse-filter.js';
import { URN } from '../../schema/urns.js';
import { parseAttributeSelection, type AttributeSelection } from './attribute-selection.js';
import { queryParameter } from '../request/query-parameter.js';
import type { ScimRequest } from '../request/scim-request.js';
import type { ServerContext } from '../config/server-context.js';
import { withEntry } from '../../json/with-entry.js';

/** A list or search request (RFC 7644 §3.4.2, §3.4.3), parsed and with paging resolved. */
export interface SearchParameters {
  readonly filter?: Filter;
  readonly sortBy?: AttrPath;
  readonly sortOrder: 'ascending' | 'descending';
  /** 1-based; a value below 1 became 1 (RFC 7644 §3.4.2.4). */
  readonly startIndex: number;
  /** Page size: negative became 0, absent became the default page size, capped by maxResults. */
  readonly count: number;
  readonly selection: AttributeSelection;
  /**
   * RFC 9865: the cursor of the page asked for (`''`: the first page), when the request pages by
   * cursor; undefined for index paging (and always when the server offers no cursors).
   */
  readonly cursor?: string;
}

/** The parameters of `GET {endpoint}` and of discovery lists, from the query string. */
export function searchFromQuery(context: ServerContext, request: ScimRequest): Result<SearchParameters> {
  return searchParameters(context, {
    filter: queryParameter(request, 'filter'),
    sortBy: queryParameter(request, 'sortBy'),
    sortOrder: queryParameter(request, 'sortOrder'),
    startIndex: queryParameter(request, 'startIndex'),
    count: queryParameter(request, 'count'),
    attributes: queryParameter(request, 'attributes', true),
    excludedAttributes: queryParameter(request, 'excludedAttributes', true),
    cursor: queryParameter(request, 'cursor'),
  });
}

/**
 * The parameters of `POST …/.search`, from a SearchRequest body (RFC 7644 §3.4.3). `schemas`, when
 * present, must list the SearchRequest URN; a body without it is accepted (lenient with clients).
 */
export function searchFromBody(context: ServerContext, body: unknown): Result<SearchParameters> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return err(scimError('invalidSyntax', 'A search request body must be a JSON object'));
  }
  const fields = new Map(Object.entries(body).map(([key, value]) => [key.toLowerCase(), value as unknown]));
  const schemas = fields.get('schemas');
  if (schemas !== undefined) {
    const listed = Array.isArray(schemas) && schemas.some((s) => typeof s === 'string' && s.toLowerCase() === URN.searchRequest.toLowerCase());
    if (!listed) return err(scimError('invalidValue', `schemas must contain ${URN.searchRequest}`));
  }
  return searchParameters(context, {
    filter: fields.get('filter'),
    sortBy: fields.get('sortby'),
    sortOrder: fields.get('sortorder'),
    startIndex: fields.get('startindex'),
    count: fields.get('count'),
    attributes: fields.get('attributes'),
    excludedAttributes: fields.get('excludedattributes'),
    cursor: fields.get('cursor'),
  });
}

interface RawSearch {
  readonly filter: unknown;
  readonly sortBy: unknown;
  readonly sortOrder: unknown;
  readonly startIndex: unknown;
  readonly count: unknown;
  readonly attributes: unknown;
  readonly excludedAttributes: unknown;
  readonly cursor: unknown;
}

function searchParameters(context: ServerContext, raw: RawSearch): Result<SearchParameters> {
  const startIndex = integer('startIndex', raw.startIndex);
  if (!startIndex.ok) return startIndex;
  const count = integer('count', raw.count);
  if (!count.ok) return count;
  const selection = parseAttributeSelection(raw.attributes, raw.excludedAttributes, context.compatibility.valueFilterInAttributes);
  if (!selection.ok) return selection;

  let filter: Filter | undefined;
  if (raw.filter !== undefined && raw.filter !== null && !(typeof raw.filter === 'string' && raw.filter.trim() === '')) {
    if (typeof raw.filter !== 'string') return err(scimError('invalidFilter', 'filter must be a string'));
    const parsed = parseFilter(raw.filter, withEntry(context.filterLimits, 'unquotedValues', context.compatibility.unquotedFilterValues));
    if (!parsed.ok) return parsed;
    filter = parsed.value;
  }

  let sortBy: AttrPath | undefined;
  if (raw.sortBy !== undefined && raw.sortBy !== null && raw.sortBy !== '') {
    if (typeof raw.sortBy !== 'string') return err(scimError('invalidPath', 'sortBy must be an attribute path'));
    const parsed = parseAttrPath(raw.sortBy);
    if (!parsed.ok) return parsed;
    sortBy = parsed.value;
  }

  let sortOrder: 'ascending' | 'descending' = 'ascending';
  if (raw.sortOrder !== undefined && raw.sortOrder !== null && raw.sortOrder !== '') {
    const order = typeof raw.sortOrder === 'string' ? raw.sortOrder.trim().toLowerCase() : undefined;
    if (order !== 'ascending' && order !== 'descending') {
      return err(scimError('invalidValue', 'sortOrder must be "ascending" or "descending"'));
    }
    sortOrder = order;
  }

  const cursor = pagingCursor(context, raw);
  if (!cursor.ok) return cursor;
  const { maxResults, defaultPageSize } = context.limits;
  return ok({
    ...(cursor.value === undefined ? {} : { cursor: cursor.value }),
    ...(filter === undefined ? {} : { filter }),
    ...(sortBy === undefined ? {} : { sortBy }),
    sortOrder,
    startIndex: Math.max(1, startIndex.value ?? 1),
    count: Math.min(maxResults, Math.max(0, count.value ?? defaultPageSize)),
    selection: selection.value,
  });
}

/**
 * RFC 9865 §2: a `cursor` (empty or bare for the first page) asks for cursor paging, `startIndex`
 * for index paging, neither for the server's `defaultPaginationMethod`. Both at once is 400
 * invalidCursor (as Ping's SDK answers; the RFC leaves it open). Without cursor paging configured
 * the parameter is ignored, as RFC 7644 servers ignore parameters they do not know.
 */
function pagingCursor(context: ServerContext, raw: RawSearch): Result<string | undefined> {
  const pagination = context.pagination;
  if (pagination === undefined) return ok(undefined);
  const given = raw.cursor !== undefined && raw.cursor !== null;
  const indexed = raw.startIndex !== undefined && raw.startIndex !== null && raw.startIndex !== '';
  if (given && typeof raw.cursor !== 'string') return err(scimError('invalidCursor', 'cursor must be a string'));
  if (given && indexed) return err(scimError('invalidCursor', 'Send either cursor or startIndex, not both (RFC 9865 §2.4)'));
  if (given) return ok(raw.cursor as string);
  return ok(!indexed && pagination.defaultPaginationMethod === 'cursor' ? '' : undefined);
}

/** An integer from a query string or JSON; anything else is 400 invalidValue (RFC 7644 §3.4.2.4; docs/concepts/paging.md). */
function integer(name: string, value: unknown): Result<number | undefined> {
  if (value === undefined || value === null || value === '') return ok(undefined);
  if (typeof value === 'number' && Number.isInteger(value)) return ok(clamp(value));
  if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) return ok(clamp(Number(value)));
  return err(scimError('invalidValue', `${name} must be an integer`));
}

function clamp(value: number): number {
  return Math.max(Number.MIN_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, value));
}
