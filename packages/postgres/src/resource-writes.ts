import type { ScimResource, WriteContext } from '@scimkit/core';
import type { SqlQueryable } from './sql-client.js';
import type { StoreTables } from './sql-names.js';
import { uniqueKey } from './unique-key.js';

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

/** `[attribute, key]` for every unique attribute the resource has a value of (RFC 7643 §2.2). */
export type Claims = readonly (readonly [string, string])[];

/** What the write statement returns: whether the row was written, whether it exists, and the referrers column when asked. */
export interface WriteRow {
  readonly written: number;
  readonly present?: boolean;
  readonly referrers?: unknown;
}

/** The unique values of `resource` under `ctx.unique`, as claims of the unique values table. */
export function claimsOf(resource: ScimResource, ctx: WriteContext): Claims {
  const claims: [string, string][] = [];
  for (const unique of ctx.unique) {
    const key = uniqueKey(resource, unique);
    if (key !== undefined) claims.push([unique.path, key]);
  }
  return claims;
}

/**
 * A create as one statement: the row (`ON CONFLICT DO NOTHING`: an id already taken writes
 * nothing, `written` 0) and, in the same statement, a row of the unique values table per claim. A
 * claim another resource holds violates that table's primary key (23505), which fails the whole
 * statement: nothing is written, across instances too, and the caller finds which attribute
 * clashed (`clashingAttribute`). `extra` adds a column (the referrers of the new resource), `also`
 * a CTE that reads `inserted` (the write's events: eventsCte).
 */
export function createSql(t: StoreTables, claims: boolean, extra = '', also = ''): string {
  const claim = claims
    ? `, claimed AS (
        INSERT INTO ${t.uniqueValues} (tenant, resource_type, attribute, key, id)
        SELECT $1, $2, e->>0, e->>1, $3 FROM jsonb_array_elements($8::jsonb) e WHERE EXISTS (SELECT 1 FROM inserted)
      )`
    : '';
  return `WITH inserted AS (
      INSERT INTO ${t.resources} (tenant, resource_type, id, version, created, last_modified, data)
      VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb) ON CONFLICT DO NOTHING RETURNING id
    )${claim}${also}
    SELECT (SELECT count(*) FROM inserted)::int AS written${extra}`;
}

export function createParams(row: ResourceRow, claims: Claims): unknown[] {
  const params: unknown[] = [row.tenant, row.resourceType, row.id, row.version, row.created, row.lastModified, row.data];
  if (claims.length > 0) params.push(JSON.stringify(claims));
  return params;
}

/**
 * A replace as one statement: the compare-and-swap `UPDATE … WHERE version = $4`, then, only if it
 * wrote, the unique values brought to the new claims: the resource's rows for values it no longer
 * holds are deleted, and rows are inserted only for values it does not hold yet. A PATCH that
 * changes no unique value therefore writes no unique-value row (two index probes). A new value
 * another resource holds fails the statement (23505) as in `createSql`. `present` says whether the
 * resource exists (in the statement's snapshot) when nothing was written: versionMismatch, not
 * notFound. `also` adds a CTE that reads `updated` (the write's events: eventsCte).
 */
export function replaceSql(t: StoreTables, extra = '', also = ''): string {
  return `WITH updated AS (
      UPDATE ${t.resources} SET version = $5, created = $6, last_modified = $7, data = $8::jsonb
      WHERE tenant = $1 AND resource_type = $2 AND id = $3 AND version = $4 RETURNING id
    ), keys AS (
      SELECT e->>0 AS attribute, e->>1 AS key FROM jsonb_array_elements($9::jsonb) e
    ), released AS (
      DELETE FROM ${t.uniqueValues} u WHERE u.tenant = $1 AND u.resource_type = $2 AND u.id = $3 AND EXISTS (SELECT 1 FROM updated)
        AND NOT EXISTS (SELECT 1 FROM keys k WHERE k.attribute = u.attribute AND k.key = u.key)
    ), claimed AS (
      INSERT INTO ${t.uniqueValues} (tenant, resource_type, attribute, key, id)
      SELECT $1, $2, k.attribute, k.key, $3 FROM keys k WHERE EXISTS (SELECT 1 FROM updated)
        AND NOT EXISTS (SELECT 1 FROM ${t.uniqueValues} u WHERE u.tenant = $1 AND u.resource_type = $2 AND u.attribute = k.attribute AND u.key = k.key AND u.id = $3)
    )${also}
    SELECT (SELECT count(*) FROM updated)::int AS written,
      EXISTS (SELECT 1 FROM ${t.resources} WHERE tenant = $1 AND resource_type = $2 AND id = $3) AS present${extra}`;
}

export function replaceParams(row: ResourceRow, expectedVersion: string, claims: Claims): unknown[] {
  return [row.tenant, row.resourceType, row.id, expectedVersion, row.version, row.created, row.lastModified, row.data, JSON.stringify(claims)];
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
  if (claims.length === 0) return undefined;
  const found = await q.query<{ attribute: string }>(
    `SELECT e->>0 AS attribute FROM jsonb_array_elements($4::jsonb) WITH ORDINALITY AS x(e, n)
     WHERE EXISTS (SELECT 1 FROM ${t.uniqueValues} u WHERE u.tenant = $1 AND u.resource_type = $2 AND u.attribute = e->>0 AND u.key = e->>1 AND u.id <> $3
       AND EXISTS (SELECT 1 FROM ${t.resources} r WHERE r.tenant = u.tenant AND r.resource_type = u.resource_type AND r.id = u.id))
     ORDER BY n LIMIT 1`,
    [tenant, resourceType, id, JSON.stringify(claims)],
  );
  return found.rows[0]?.attribute;
}

/**
 * Deletes the unique values among `claims` held by a resource that no longer exists (the unique
 * values table has no foreign key since schema version 4: a row deleted by hand, or by an older
 * instance, leaves its values behind), so that the write claiming them can run again.
 */
export async function releaseOrphans(q: SqlQueryable, t: StoreTables, tenant: string, resourceType: string, id: string, claims: Claims): Promise<void> {
  await q.query(
    `DELETE FROM ${t.uniqueValues} u USING jsonb_array_elements($4::jsonb) e
     WHERE u.tenant = $1 AND u.resource_type = $2 AND u.attribute = e->>0 AND u.key = e->>1 AND u.id <> $3
       AND NOT EXISTS (SELECT 1 FROM ${t.resources} r WHERE r.tenant = u.tenant AND r.resource_type = u.resource_type AND r.id = u.id)`,
    [tenant, resourceType, id, JSON.stringify(claims)],
  );
}
