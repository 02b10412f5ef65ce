import type { ScimResource, WriteContext } from '@scimkit/core';
import type { SqlQueryable } from './sql-client.js';
import { countedCte, countInsert } from './resource-counts.js';
import { quoteLiteral, type StoreTables } from './sql-names.js';
import { ROW_KEY_ATTRIBUTE, uniqueKey } from './unique-key.js';

/** A resource's row, as `create` and `replace` write it. */
export interface ResourceRow {
  readonly tenant: string;
  readonly resourceType: string;
  readonly id: string;
  readonly version: string;
  readonly created: string | null;
  readonly lastModified: string | null;
  /** The stored form's document, as JSON text. */
  readonly data: string;
}

/** What the write statement returns: whether the row was written, and the referrers column when asked. */
export interface WriteRow {
  readonly written: number;
  readonly referrers?: unknown;
}

/**
 * A resource's unique values (RFC 7643 §2.2) under `ctx.unique`, as `[attribute, key]` pairs in the
 * order of `ctx.unique`: the key of `userName` goes in the row itself (`unique_key`, a unique index,
 * schema version 6), every other value in a row of the unique values table.
 */
export interface Claims {
  readonly all: readonly (readonly [string, string])[];
  /** The key of the `userName` value, or null when the resource has none (or it is not unique). */
  readonly row: string | null;
  /** The other claims as the JSON array the statements read; undefined when there are none. */
  readonly others: string | undefined;
}

/** The claims of `resource` under `ctx.unique`. */
export function claimsOf(resource: ScimResource, ctx: WriteContext): Claims {
  const all: [string, string][] = [];
  let row: string | null = null;
  let others: [string, string][] | undefined;
  for (const unique of ctx.unique) {
    const key = uniqueKey(resource, unique);
    if (key === undefined) continue;
    all.push([unique.path, key]);
    if (unique.path === ROW_KEY_ATTRIBUTE) row = key;
    else (others ??= []).push([unique.path, key]);
  }
  return { all, row, others: others === undefined ? undefined : JSON.stringify(others) };
}

/**
 * A create as one statement: the row with its `unique_key` and, in the same statement, a row of the
 * unique values table per other claim. An id already taken violates the primary key, a value another
 * resource holds the `unique_key` index or that table's primary key (23505, no `ON CONFLICT`: its
 * speculative insertion cost a fifth of the statement): the whole statement fails, nothing is
 * written, across instances too, and the caller finds which (`clashingAttribute`, the id first).
 * The count of the resource's type goes up by one in the same statement (countedCte: a row of the
 * count changes, schema version 9), and with `fold` the type's changes are folded into its total.
 * `extra` adds a column (the referrers of the new resource), `also` a CTE that reads `inserted` (the
 * write's events: eventsCte). With neither, no other claim and no fold, the statement is the row's
 * `INSERT` and the count change's, nothing more.
 */
export function createSql(t: StoreTables, others: boolean, extra = '', also = '', fold = false): string {
  const insert = `INSERT INTO ${t.resources} (tenant, resource_type, id, version, created, last_modified, data, unique_key)
      VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)`;
  if (!others && extra === '' && also === '' && !fold) return `WITH inserted AS (${insert} RETURNING id) ${countInsert(t, 'inserted', 1)} RETURNING 1 AS written`;
  const claim = others
    ? `, claimed AS (
        INSERT INTO ${t.uniqueValues} (tenant, resource_type, attribute, key, id)
        SELECT $1, $2, e->>0, e->>1, $3 FROM jsonb_array_elements($9::jsonb) e
      )`
    : '';
  return `WITH inserted AS (
      ${insert} RETURNING id
    )${countedCte(t, 'inserted', 1, fold)}${claim}${also}
    SELECT (SELECT count(*) FROM inserted)::int AS written${extra}`;
}

export function createParams(row: ResourceRow, claims: Claims): unknown[] {
  const params: unknown[] = [row.tenant, row.resourceType, row.id, row.version, row.created, row.lastModified, row.data, claims.row];
  if (claims.others !== undefined) params.push(claims.others);
  return params;
}

/**
 * A replace as one statement: the compare-and-swap `UPDATE … WHERE version = $4`, which sets
 * `unique_key` too, then, only if it wrote, the resource's rows of the unique values table brought
 * to its other claims: its rows for values it no longer holds are deleted, and rows are inserted only
 * for values it does not hold yet. A PATCH that changes no unique value writes no unique-value row;
 * a resource with no other claim (a User whose one unique attribute is `userName`) costs one probe
 * of the table's owner index, for rows an earlier write may have left. A new value another resource
 * holds fails the statement (23505) as in `createSql`. `written` 0: no row at the expected version
 * (`missOutcome` tells which). `also` adds a CTE that reads `updated` (the write's events: eventsCte).
 */
export function replaceSql(t: StoreTables, others: boolean, extra = '', also = ''): string {
  const kept = others
    ? `AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements($10::jsonb) e WHERE e->>0 = u.attribute AND e->>1 = u.key)`
    : '';
  const claim = others
    ? `, claimed AS (
      INSERT INTO ${t.uniqueValues} (tenant, resource_type, attribute, key, id)
      SELECT $1, $2, e->>0, e->>1, $3 FROM jsonb_array_elements($10::jsonb) e WHERE EXISTS (SELECT 1 FROM updated)
        AND NOT EXISTS (SELECT 1 FROM ${t.uniqueValues} u WHERE u.tenant = $1 AND u.resource_type = $2 AND u.attribute = e->>0 AND u.key = e->>1 AND u.id = $3)
    )`
    : '';
  return `WITH updated AS (
      UPDATE ${t.resources} SET version = $5, created = $6, last_modified = $7, data = $8::jsonb, unique_key = $9
      WHERE tenant = $1 AND resource_type = $2 AND id = $3 AND version = $4 RETURNING id
    ), released AS (
      DELETE FROM ${t.uniqueValues} u WHERE u.tenant = $1 AND u.resource_type = $2 AND u.id = $3 AND EXISTS (SELECT 1 FROM updated) ${kept}
    )${claim}${also}
    SELECT (SELECT count(*) FROM updated)::int AS written${extra}`;
}

export function replaceParams(row: ResourceRow, expectedVersion: string, claims: Claims): unknown[] {
  const params: unknown[] = [row.tenant, row.resourceType, row.id, expectedVersion, row.version, row.created, row.lastModified, row.data, claims.row];
  if (claims.others !== undefined) params.push(claims.others);
  return params;
}

/** Whether a driver error is a unique violation (23505): of a write statement, a claim another resource holds. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/**
 * The first claimed attribute whose value another existing resource of the type holds, after a
 * write failed with a unique violation; undefined when none does any more (the holder let it go
 * since, or is gone: see releaseOrphans).
 */
export async function clashingAttribute(q: SqlQueryable, t: StoreTables, tenant: string, resourceType: string, id: string, claims: Claims): Promise<string | undefined> {
  if (claims.all.length === 0) return undefined;
  const found = await q.query<{ attribute: string }>(
    `SELECT e->>0 AS attribute FROM jsonb_array_elements($4::jsonb) WITH ORDINALITY AS x(e, n)
     WHERE CASE WHEN e->>0 = ${quoteLiteral(ROW_KEY_ATTRIBUTE)}
       THEN EXISTS (SELECT 1 FROM ${t.resources} r WHERE r.tenant = $1 AND r.resource_type = $2 AND r.unique_key = e->>1 AND r.id <> $3)
       ELSE EXISTS (SELECT 1 FROM ${t.uniqueValues} u WHERE u.tenant = $1 AND u.resource_type = $2 AND u.attribute = e->>0 AND u.key = e->>1 AND u.id <> $3
         AND EXISTS (SELECT 1 FROM ${t.resources} r WHERE r.tenant = u.tenant AND r.resource_type = u.resource_type AND r.id = u.id)) END
     ORDER BY n LIMIT 1`,
    [tenant, resourceType, id, JSON.stringify(claims.all)],
  );
  return found.rows[0]?.attribute;
}

/**
 * Deletes the unique values among `claims` (those of the unique values table) held by a resource
 * that no longer exists (the table has no foreign key since schema version 4: a row deleted by hand,
 * or by an older instance, leaves its values behind), so that the write claiming them can run again.
 */
export async function releaseOrphans(q: SqlQueryable, t: StoreTables, tenant: string, resourceType: string, id: string, claims: Claims): Promise<void> {
  if (claims.others === undefined) return;
  await q.query(
    `DELETE FROM ${t.uniqueValues} u USING jsonb_array_elements($4::jsonb) e
     WHERE u.tenant = $1 AND u.resource_type = $2 AND u.attribute = e->>0 AND u.key = e->>1 AND u.id <> $3
       AND NOT EXISTS (SELECT 1 FROM ${t.resources} r WHERE r.tenant = u.tenant AND r.resource_type = u.resource_type AND r.id = u.id)`,
    [tenant, resourceType, id, claims.others],
  );
}
