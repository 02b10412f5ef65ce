/** RFC 9110 §5.5 field value, restricted to visible ASCII, space and tab (obs-text left out). */
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;

/**
 * Response headers every adapter can write (into `out` when given): a value that is not a valid field value (a store's
 * version holding CR LF, an id or base URL with non-ASCII characters) would make Node throw
 * while writing, or split the header. `Location` is encoded to ASCII (IDNA host, percent-encoded path,
 * RFC 3986 §2.1); any other invalid value is left out rather than sent broken.
 */
export function writableHeaders(headers: Readonly<Record<string, string>>, out: Record<string, string> = {}): Record<string, string> {
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string') continue;
    if (FIELD_VALUE.test(value)) out[name] = value;
    else if (name.toLowerCase() === 'location') {
      const encoded = encodeLocation(value);
      if (encoded !== undefined) out[name] = encoded;
    }
  }
  return out;
}

/** An absolute URL as WHATWG URL serializes it (IDNA host, percent-encoded path), else `encodeURI`. */
function encodeLocation(value: string): string | undefined {
  for (const encode of [(text: string) => new URL(text).href, encodeURI]) {
    try {
      const encoded = encode(value);
      if (FIELD_VALUE.test(encoded)) return encoded;
    } catch {
      // A relative location, or a lone surrogate: try the next encoding.
    }
  }
  return undefined;
}
