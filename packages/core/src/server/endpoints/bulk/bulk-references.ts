/**
 * `bulkId:` references (RFC 7644 §3.7.2). A value that is `bulkId:qwerty`, or that ends in
 * `/bulkId:qwerty` (a `$ref`, an operation's path), stands for the id of the resource that the
 * operation with bulkId `qwerty` creates; anywhere in `data` (members, the enterprise `manager`,
 * PATCH values, nested) and in `path`.
 */
const REFERENCE = /(^|\/)bulkId:([^/"\\?#]+)(?=$|")/g;
const IN_JSON = /(["/])bulkId:([^/"\\]+)(?=")/g;

/** The bulkIds `path` and `data` (JSON text) reference. */
export function bulkReferences(path: string, data: string | undefined): Set<string> {
  const found = new Set<string>();
  for (const match of path.matchAll(REFERENCE)) found.add(match[2] ?? '');
  if (data !== undefined) for (const match of data.matchAll(IN_JSON)) found.add(match[2] ?? '');
  return found;
}

/** `path` and `data` with every reference replaced by the id created for it. */
export function resolveReferences(path: string, data: string | undefined, ids: ReadonlyMap<string, string>): { path: string; data?: string } {
  const id = (bulkId: string): string => ids.get(bulkId) ?? `bulkId:${bulkId}`;
  const resolvedPath = path.replace(REFERENCE, (_all, lead: string, bulkId: string) => `${lead}${encodeURIComponent(id(bulkId))}`);
  if (data === undefined) return { path: resolvedPath };
  // Ids are inserted into JSON text: escape them as JSON string content.
  const resolvedData = data.replace(IN_JSON, (_all, lead: string, bulkId: string) => `${lead}${JSON.stringify(id(bulkId)).slice(1, -1)}`);
  return { path: resolvedPath, data: resolvedData };
}
