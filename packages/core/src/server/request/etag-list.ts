/**
 * Does an `If-Match` / `If-None-Match` header value name `version`? The value is split on commas
 * and trimmed; `*` matches any current version, and an entry equal to the tag without its weak
 * `W/` prefix matches too (RFC 7232 §2.3.2 weak comparison; docs/concepts/etags-and-concurrency.md).
 */
export function etagListMatches(header: string, version: string): boolean {
  const strong = version.startsWith('W/') ? version.slice(2) : version;
  for (const raw of header.split(',')) {
    const entry = raw.trim();
    if (entry === '*' || entry === version || entry === strong) return true;
    if (entry.startsWith('W/') && entry.slice(2) === strong) return true;
  }
  return false;
}
