/**
 * `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. Returns milliseconds to wait
 * from `now`, or undefined when the header is absent or unreadable.
 */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
