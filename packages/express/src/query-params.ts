/** Decoded query parameters of a raw URL; a repeated name gives an array. Framework query parsers are not used. */
export function queryParams(url: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  const start = url.indexOf('?');
  if (start < 0) return query;
  for (const [name, value] of new URLSearchParams(url.slice(start + 1))) {
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
}
