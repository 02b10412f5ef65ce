const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** RFC 7643 §2.3.6: binary values are base64 as RFC 4648 §4 defines it (standard alphabet, padded). */
export function isBase64(value: string): boolean {
  return BASE64.test(value);
}
