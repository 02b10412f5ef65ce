/**
 * The decoded query parameters of a request target (`/Users?filter=…`, or the query string alone
 * after a `?`); a repeated name gives an array. Adapters use it instead of framework query parsers,
 * which read brackets and dots as nesting.
 */
export function parseQuery(target: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  const start = target.indexOf('?');
  if (start < 0) return query;
  for (const [name, value] of new URLSearchParams(target.slice(start + 1))) {
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
}
