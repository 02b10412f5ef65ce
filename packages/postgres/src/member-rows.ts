import type { SqlQueryable } from './sql-client.js';
import type { StoreTables } from './sql-names.js';

/** Where one group's member rows live. */
export interface GroupKey {
  readonly tenant: string;
  readonly resourceType: string;
  readonly id: string;
}

/** Appends `elements` as member rows after the group's last position. */
export async function insertMembers(tx: SqlQueryable, t: StoreTables, group: GroupKey, elements: readonly unknown[]): Promise<void> {
  if (elements.length === 0) return;
  await tx.query(
    `INSERT INTO ${t.members} (tenant, resource_type, group_id, position, member_id, type, element)
     SELECT $1, $2, $3,
       (SELECT coalesce(max(position), -1) FROM ${t.members} WHERE tenant = $1 AND resource_type = $2 AND group_id = $3) + x.ord::int,
       CASE WHEN jsonb_typeof(x.e->'value') = 'string' THEN x.e->>'value' END,
       CASE WHEN jsonb_typeof(x.e->'type') = 'string' THEN x.e->>'type' END,
       x.e
     FROM jsonb_array_elements($4::jsonb) WITH ORDINALITY AS x(e, ord)`,
    [group.tenant, group.resourceType, group.id, JSON.stringify(elements)],
  );
}

/** Replaces all of the group's member rows with `elements`. */
export async function rewriteMembers(tx: SqlQueryable, t: StoreTables, group: GroupKey, elements: readonly unknown[]): Promise<void> {
  await tx.query(`DELETE FROM ${t.members} WHERE tenant = $1 AND resource_type = $2 AND group_id = $3`, [group.tenant, group.resourceType, group.id]);
  await insertMembers(tx, t, group, elements);
}

/**
 * Applies one PATCH's element changes (WriteContext.changes) as row deletes and inserts, so adding
 * one member to a group of 100,000 writes one row. `final` is the attribute after the write; when
 * the rows do not add up to it (elements repeated, an order the delta cannot express), the rows are
 * rewritten from `final`, so the table always holds exactly `final`.
 */
export async function applyMemberChange(
  tx: SqlQueryable,
  t: StoreTables,
  group: GroupKey,
  change: { readonly added: readonly unknown[]; readonly removed: readonly unknown[] },
  final: readonly unknown[],
): Promise<void> {
  const tail = final.slice(final.length - change.added.length);
  if (change.added.length > final.length || JSON.stringify(tail) !== JSON.stringify(change.added)) {
    await rewriteMembers(tx, t, group, final);
    return;
  }
  const key = [group.tenant, group.resourceType, group.id];
  if (change.removed.length > 0) {
    await tx.query(
      `DELETE FROM ${t.members} WHERE tenant = $1 AND resource_type = $2 AND group_id = $3 AND element IN (SELECT jsonb_array_elements($4::jsonb))`,
      [...key, JSON.stringify(change.removed)],
    );
  }
  await insertMembers(tx, t, group, change.added);
  const counted = await tx.query<{ n: number | string }>(`SELECT count(*) AS n FROM ${t.members} WHERE tenant = $1 AND resource_type = $2 AND group_id = $3`, key);
  if (Number(counted.rows[0]?.n) !== final.length) await rewriteMembers(tx, t, group, final);
}

/** The aggregated member elements of row `r`, in order (NULL when it has none). */
export function membersColumn(t: StoreTables): string {
  return `(SELECT jsonb_agg(m.element ORDER BY m.position) FROM ${t.members} m WHERE m.tenant = r.tenant AND m.resource_type = r.resource_type AND m.group_id = r.id) AS members`;
}
