/**
 * The decoded query parameters of a request target (`/Users?filter=…`, or the query string alone
 * after a `?`); a repeated name gives an array. Adapters use it instead of framework query parsers,
 * which read brackets and dots as nesting.
 *
 * Linear in the length of the query, however often a name repeats: it runs before authentication,
 * so a hostile query string must cost no more than reading it. How many parameters a request may
 * carry is the server's to decide (`limits.maxQueryParameters`).
 */
export function parseQuery(target: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  const start = target.indexOf('?');
  if (start < 0) return query;
  for (const [name, value] of new URLSearchParams(target.slice(start + 1))) {
    const seen = query[name];
    // The arrays are this function's own until it returns: append in place, never copy per repeat.
    if (seen === undefined) query[name] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else query[name] = [seen, value];
  }
  return query;
}
