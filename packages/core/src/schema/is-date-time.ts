/** `[-]YYYY-MM-DDThh:mm:ss[.fff][Z|±hh:mm]`, the xsd:dateTime lexical form (XML Schema Part 2 §3.2.7). */
const DATE_TIME = /^(-?(?:[1-9]\d{4,}|\d{4}))-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-](\d{2}):(\d{2}))?$/;

/** RFC 7643 §2.3.5: a DateTime "MUST be encoded as a valid xsd:dateTime", with a real calendar date. */
export function isDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (m === null) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  // xsd:dateTime allows 24:00:00 as the end of a day, and no leap second.
  if (hour === 24 ? minute !== 0 || second !== 0 || /\.\d*[1-9]/.test(value) : hour > 23) return false;
  if (minute > 59 || second > 59) return false;
  if (m[8] !== undefined) {
    const tzHour = Number(m[8]);
    const tzMinute = Number(m[9]);
    if (tzMinute > 59 || tzHour > 14 || (tzHour === 14 && tzMinute !== 0)) return false;
  }
  return true;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
