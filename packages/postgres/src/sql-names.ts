/** A SQL identifier, double-quoted (`"scim"`, `"we""ird"`). */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A SQL string literal for text that comes from configuration (schema names), never from requests. */
export function quoteLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** The qualified names of the store's tables and functions in one PostgreSQL schema. */
export interface StoreTables {
  readonly schema: string;
  readonly resources: string;
  readonly uniqueValues: string;
  readonly members: string;
  /** The exact number of resources per tenant and type, in shards summed on read (schema version 8). */
  readonly counts: string;
  /** The changes to those counts not folded into them yet, one row per create or delete (schema version 9). */
  readonly countChanges: string;
  readonly migrations: string;
  readonly instant: string;
  readonly pick: string;
  /** The function that walks the groups holding a resource, up the nesting (schema version 7). */
  readonly referrers: string;
}

export function storeTables(schema: string): StoreTables {
  const q = (name: string): string => `${quoteIdent(schema)}.${quoteIdent(name)}`;
  return {
    schema,
    resources: q('scim_resources'),
    uniqueValues: q('scim_unique_values'),
    members: q('scim_group_members'),
    counts: q('scim_resource_counts'),
    countChanges: q('scim_resource_count_changes'),
    migrations: q('scim_migrations'),
    instant: q('scim_instant'),
    pick: q('scim_pick'),
    referrers: q('scim_referrers'),
  };
}
