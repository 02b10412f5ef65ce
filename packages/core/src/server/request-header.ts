import type { ScimRequest } from './scim-request.js';

/** A request header by name, case-insensitively; repeated headers are joined with ", " (RFC 9110 §5.3). */
export function requestHeader(request: ScimRequest, name: string): string | undefined {
  const headers = request.headers;
  if (typeof headers !== 'object' || headers === null) return undefined;
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    const value: unknown = headers[key];
    if (typeof value === 'string') return value;
    return Array.isArray(value) ? value.filter((entry) => typeof entry === 'string').join(', ') : undefined;
  }
  return undefined;
}
