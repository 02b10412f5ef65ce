const OFFSET = /(?:[Zz]|[+-]\d{2}:\d{2})$/;

/**
 * The instant a dateTime denotes, in milliseconds since the epoch, or NaN. RFC 7643 §2.3.5 dateTimes
 * are xsd:dateTime; one without a time-zone offset is read as UTC (ECMAScript would read it as local
 * time, making results depend on the server's zone). Fractions beyond milliseconds are truncated.
 */
export function dateTimeInstant(text: string): number {
  if (text.charCodeAt(text.length - 1) === 0x5a /* Z */ || OFFSET.test(text)) return Date.parse(text);
  return Date.parse(text.includes('T') ? `${text}Z` : text);
}
