/** RFC 3986 §3.2.2 host: an IP-literal (IPv6 in brackets) or a reg-name (IPv4 included); §3.2.3 port. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+)(?::(\d{0,5}))?$/;

/**
 * Whether a `Host` header value is a valid `host[:port]` (RFC 9110 §7.2, RFC 3986 §3.2.2), fit to
 * build `meta.location` from. RFC 9112 §3.2: a request with an invalid `Host` is answered 400;
 * the adapters do that rather than echo `evil.example/x?` into `Location`.
 */
export function isValidHost(host: string): boolean {
  const match = HOST.exec(host);
  return match !== null && (match[1] === undefined || match[1] === '' || Number(match[1]) <= 65_535);
}
