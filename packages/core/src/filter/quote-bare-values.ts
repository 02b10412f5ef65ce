/** `SP compareOp SP` followed by a value that does not start like a JSON string. */
const OPERATOR_THEN_BARE = /(\s+)(eq|ne|co|sw|ew|gt|lt|ge|le)(\s+)([^\s()[\]"]+)/iy;
const JSON_LITERAL = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)$/i;

/**
 * A compatibility rewrite, off unless asked for: some clients (the Microsoft SCIM validator's
 * `userName sw O`, `meta.Created gt 2015-10-10T14:38:21.8617979-07:00`) send comparison values
 * without the quotes RFC 7644 §3.4.2.2 requires (compValue is JSON). Each bare word after a comparison
 * operator that is not a JSON number, `true`, `false` or `null` becomes a JSON string; string
 * literals are left alone. Positions in later error messages refer to the rewritten text.
 */
export function quoteBareValues(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const end = endOfString(text, i);
      out += text.slice(i, end);
      i = end;
      continue;
    }
    OPERATOR_THEN_BARE.lastIndex = i;
    const m = OPERATOR_THEN_BARE.exec(text);
    if (m !== null && !JSON_LITERAL.test(m[4] as string)) {
      out += `${m[1]}${m[2]}${m[3]}${JSON.stringify(m[4])}`;
      i = OPERATOR_THEN_BARE.lastIndex;
      continue;
    }
    out += text.charAt(i);
    i++;
  }
  return out;
}

/** Index just past the string literal opening at `start` (or the end of the text if it never closes). */
function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x22) return i + 1;
  }
  return text.length;
}
