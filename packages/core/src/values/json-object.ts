/** A JSON object as it arrives from `JSON.parse` (own enumerable keys only). */
export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The own key of `object` equal to `name` ignoring case (schema spelling preferred), if any:
 * attribute names are case-insensitive (RFC 7643 §2.1).
 */
export function findKey(object: JsonObject, name: string): string | undefined {
  if (Object.prototype.hasOwnProperty.call(object, name)) return name;
  let lower: string | undefined;
  let dotted: boolean | undefined;
  for (const key in object) {
    if (!Object.prototype.hasOwnProperty.call(object, key)) continue;
    // Folding case keeps the length of every UTF-16 string but those with U+0130 (İ, which folds to
    // two code units): a key of another length cannot match, and most misses fold nothing.
    if (key.length !== name.length && !(dotted ??= name.includes('\u0130')) && !key.includes('\u0130')) continue;
    lower ??= name.toLowerCase();
    if (key.toLowerCase() === lower) return key;
  }
  return undefined;
}

/** The value under `name` (case-insensitive), or undefined. */
export function getKey(object: JsonObject, name: string): unknown {
  const key = findKey(object, name);
  return key === undefined ? undefined : object[key];
}
