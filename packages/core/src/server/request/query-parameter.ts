import type { ScimRequest } from './scim-request.js';

/**
 * A query parameter by name, matched case-insensitively (`startindex` works like `startIndex`).
 * A repeated parameter gives its first value, except where `join` asks for all values
 * comma-joined (`attributes=a&attributes=b`).
 */
export function queryParameter(request: ScimRequest, name: string, join = false): string | undefined {
  const query = request.query;
  if (typeof query !== 'object' || query === null) return undefined;
  const wanted = name.toLowerCase();
  let exact: string | readonly string[] | undefined;
  let loose: string | readonly string[] | undefined;
  for (const key of Object.keys(query)) {
    if (key === name) exact = query[key];
    else if (loose === undefined && key.toLowerCase() === wanted) loose = query[key];
  }
  const value: unknown = exact ?? loose;
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return undefined;
  const strings = value.filter((entry): entry is string => typeof entry === 'string');
  return join ? strings.join(',') : strings[0];
}
