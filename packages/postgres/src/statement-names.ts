/**
 * Names for prepared statements (SqlQueryable.query's `name`): one per distinct text, derived from
 * the text, so the same text always has the same name and two texts never share one. At most
 * `limit` texts get a name: each is prepared once on every pooled connection and kept for its life,
 * so texts that vary without bound (filters) must not fill the connections; past the limit a text
 * runs unnamed (parsed and planned each time, as before).
 */
export class StatementNames {
  private readonly names = new Map<string, string | undefined>();
  private readonly taken = new Set<string>();

  constructor(private readonly limit = 256) {}

  of(text: string): string | undefined {
    if (this.names.has(text)) return this.names.get(text);
    if (this.names.size >= this.limit) return undefined;
    const digest = `scimkit_${fnv1a(text)}_${text.length.toString(36)}`;
    // Two texts with one digest (unlikely): the second runs unnamed, never under the first's name.
    const name = this.taken.has(digest) ? undefined : digest;
    if (name !== undefined) this.taken.add(name);
    this.names.set(text, name);
    return name;
  }
}

/** 32-bit FNV-1a of the UTF-16 code units, in hex: a short, stable digest for a name. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
