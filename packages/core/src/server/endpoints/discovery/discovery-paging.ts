import { err, ok, type Result } from '../../../errors/result.js';
import { httpError, scimError } from '../../../errors/scim-error.js';
import { queryParameter } from '../../request/query-parameter.js';
import type { ScimRequest } from '../../request/scim-request.js';
import type { ServerContext } from '../../config/server-context.js';

/** The page a discovery list request asks for. */
export interface DiscoveryPage {
  readonly startIndex: number;
  readonly count: number;
}

/**
 * Query rules of the discovery endpoints (RFC 7644 §4): a `filter` is 403; `startIndex` and
 * `count` page the list as anywhere else; `attributes`/`excludedAttributes` are ignored.
 */
export function discoveryPage(context: ServerContext, request: ScimRequest): Result<DiscoveryPage> {
  const refused = refuseFilter(request);
  if (!refused.ok) return refused;
  const startIndex = integer('startIndex', queryParameter(request, 'startIndex'));
  if (!startIndex.ok) return startIndex;
  const count = integer('count', queryParameter(request, 'count'));
  if (!count.ok) return count;
  return ok({
    startIndex: Math.max(1, startIndex.value ?? 1),
    count: Math.min(context.limits.maxResults, Math.max(0, count.value ?? context.limits.maxResults)),
  });
}

/** RFC 7644 §4: "If a 'filter' is provided, the service provider SHOULD respond with HTTP status code 403". */
export function refuseFilter(request: ScimRequest): Result<void> {
  const filter = queryParameter(request, 'filter');
  if (filter !== undefined && filter !== '') return err(httpError(403, 'Filtering is not supported on discovery endpoints'));
  return ok(undefined);
}

/** A page of a discovery list. */
export function pageOf<T>(items: readonly T[], page: DiscoveryPage): T[] {
  return items.slice(page.startIndex - 1, page.startIndex - 1 + page.count);
}

function integer(name: string, value: string | undefined): Result<number | undefined> {
  if (value === undefined || value === '') return ok(undefined);
  if (!/^\s*[+-]?\d+\s*$/.test(value)) return err(scimError('invalidValue', `${name} must be an integer`));
  return ok(Math.max(Number.MIN_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, Number(value))));
}
