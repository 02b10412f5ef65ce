import type { ScimRequest } from './scim-request.js';

/** A request header by name, case-insensitively; repeated headers are joined with ", " (RFC 9110 §5.3). */
export function requestHeader(request: ScimRequest, name: string): string | undefined {
  const headers = request.headers;
  if (typeof headers !== 'object' || headers === null) return undefined;
  const wanted = name.toLowerCase();
  // Node (and most frameworks) give lower-case names: look that spelling up first.
  if (Object.prototype.hasOwnProperty.call(headers, wanted)) return headerValue(headers[wanted]);
  for (const key of Object.keys(headers)) {
    // Lower-casing keeps the length of an ASCII header name: compare only names of the same length.
    if (key.length !== wanted.length || key.toLowerCase() !== wanted) continue;
    return headerValue(headers[key]);
  }
  return undefined;
}

function headerValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return Array.isArray(value) ? value.filter((entry) => typeof entry === 'string').join(', ') : undefined;
}
