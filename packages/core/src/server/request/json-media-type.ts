/** What a request's `Content-Type` says about its body. */
export interface RequestMediaType {
  /** `…/json` or `…/…+json` (RFC 6839 §3.1), or no `Content-Type` at all. */
  readonly json: boolean;
  /** The `charset` parameter, lower-cased and unquoted, when one is given. */
  readonly charset?: string;
}

/**
 * Parse a `Content-Type` header (RFC 9110 §8.3). RFC 7644 §3.8: bodies are JSON, UTF-8 by
 * default; a client using another encoding names it in `charset`.
 */
export function requestMediaType(contentType: string | undefined): RequestMediaType {
  if (contentType === undefined || contentType.trim() === '') return { json: true };
  const [type = '', ...parameters] = contentType.split(';');
  const subtype = type.trim().toLowerCase().split('/')[1] ?? '';
  const json = subtype === 'json' || subtype.endsWith('+json');
  for (const parameter of parameters) {
    const at = parameter.indexOf('=');
    if (at === -1 || parameter.slice(0, at).trim().toLowerCase() !== 'charset') continue;
    const charset = parameter.slice(at + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
    return charset === '' ? { json } : { json, charset };
  }
  return { json };
}
