/** The prefixes of the first operations' error details, made once: most requests carry one or two operations. */
const FIRST = Object.freeze(Array.from({ length: 16 }, (_, index) => `Operations[${index}]`));

/** `Operations[i]`, the prefix of the error details about operation `index` (0-based). */
export function operationAt(index: number): string {
  return FIRST[index] ?? `Operations[${index}]`;
}
