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
    const char = text[i];
    if (char === '"') {
      const end = stringEnd(text, i);
      const names = open[open.length - 1];
      if (expectName && names !== undefined && names !== null) {
        const name = JSON.parse(text.slice(i, end + 1)) as string;
        if (names.has(name)) return name;
        names.add(name);
        expectName = false;
      }
      i = end;
    } else if (char === '{') {
      open.push(new Set());
      expectName = true;
    } else if (char === '[') {
      open.push(null);
      expectName = false;
    } else if (char === '}' || char === ']') {
      open.pop();
      expectName = false;
    } else if (char === ',') {
      expectName = open[open.length - 1] instanceof Set;
    }
  }
  return undefined;
}

/** Index of the closing quote of the string starting at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const char = text[i];
    if (char === '\\') i += 2;
    else if (char === '"') return i;
    else i += 1;
  }
  return text.length - 1;
}
