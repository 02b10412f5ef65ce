import type { ScimRequest } from './scim-request.js';

/** A request header by name, case-insensitively; repeated headers are joined with ", " (RFC 9110 §5.3). */
export function requestHeader(request: ScimRequest, name: string): string | undefined {
  const headers = request.headers;
  if (headers === undefined) return undefined;
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    const value = headers[key];
    if (value === undefined) return undefined;
    return typeof value === 'string' ? value : value.join(', ');
  }
  return undefined;
}
