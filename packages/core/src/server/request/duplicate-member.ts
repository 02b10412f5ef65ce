/**
 * The first member name that appears twice in one object of a JSON text, else undefined. RFC 8259
 * §4: names SHOULD be unique, and with duplicates "the behavior of software that receives such an
 * object is unpredictable" (JSON.parse keeps the last). Only called on text JSON.parse accepted,
 * so the scan needs no error handling; it is one pass, iterative, whatever the nesting depth.
 */
export function duplicateMember(text: string): string | undefined {
  // One entry per open container: the names seen so far for an object, null for an array.
  const open: (Set<string> | null)[] = [];
  let expectName = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === QUOTE) {
      const end = stringEnd(text, i);
      const names = open[open.length - 1];
      if (expectName && names !== undefined && names !== null) {
        const raw = text.slice(i + 1, end);
        const name = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (names.has(name)) return name;
        names.add(name);
        expectName = false;
      }
      i = end;
    } else if (char === OPEN_OBJECT) {
      open.push(new Set());
      expectName = true;
    } else if (char === OPEN_ARRAY) {
      open.push(null);
      expectName = false;
    } else if (char === CLOSE_OBJECT || char === CLOSE_ARRAY) {
      open.pop();
      expectName = false;
    } else if (char === COMMA) {
      expectName = open[open.length - 1] instanceof Set;
    }
  }
  return undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;

/** Index of the closing quote of the string starting at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote === -1) return text.length - 1;
    // The quote closes the string unless an odd number of backslashes escapes it.
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote;
    i = quote + 1;
  }
}
