/** `value` as a LIKE pattern that matches it literally: `\`, `%` and `_` escaped with `\` (LIKE's default escape). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
