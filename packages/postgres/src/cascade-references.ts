import type { CascadedChange, DeleteContext, ScimResource } from '@scimkit/core';
import type { SqlQueryable } from './sql-client.js';
import { quoteLiteral, type StoreTables } from './sql-names.js';
import { fromStoredForm, toStoredForm } from './stored-form.js';

/**
 * Removes the elements that reference the deleted resource `id` by `value` (`Group.members`), in the
 * delete's transaction: member rows by the member index, other attributes by jsonb containment on the
 * whole document (`data @> {"attr": [{"value": id}]}`, the form a GIN index on `data` serves). Each
 * changed resource is locked, gets the `meta` that `ctx.touch` gives it, and is reported.
 */
export async function cascadeReferences(
  tx: SqlQueryable,
  t: StoreTables,
  tenant: string,
  id: string,
  ctx: DeleteContext,
  memberAttribute: (resourceType: string) => string | undefined,
): Promise<CascadedChange[]> {
  const cascaded: CascadedChange[] = [];
  for (const reference of ctx.references ?? []) {
    const inTable = memberAttribute(reference.resourceType) === reference.attribute;
    const holders = inTable
      ? await tx.query<{ id: string }>(
          `SELECT DISTINCT group_id AS id FROM ${t.members} WHERE tenant = $1 AND lower(normalize(member_id, NFC)) = lower(normalize($3, NFC)) AND member_id = $3 AND resource_type = $2 ORDER BY 1`,
          [tenant, reference.resourceType, id],
        )
      : await tx.query<{ id: string }>(
          `SELECT id FROM ${t.resources} WHERE tenant = $1 AND resource_type = $2 AND data @> jsonb_build_object(${quoteLiteral(reference.attribute)}, jsonb_build_array(jsonb_build_object('value', $3::text))) ORDER BY id`,
          [tenant, reference.resourceType, id],
        );
    for (const holder of holders.rows) {
      const key = [tenant, reference.resourceType, holder.id];
      const locked = await tx.query<{ data: Record<string, unknown>; members: unknown[] | null }>(
        `SELECT r.data, ${inTable ? `(SELECT jsonb_agg(m.element ORDER BY m.position) FROM ${t.members} m WHERE m.tenant = r.tenant AND m.resource_type = r.resource_type AND m.group_id = r.id)` : 'NULL::jsonb'} AS members
         FROM ${t.resources} r WHERE r.tenant = $1 AND r.resource_type = $2 AND r.id = $3 FOR UPDATE`,
        key,
      );
      const row = locked.rows[0];
      if (row === undefined) continue;
      const before = fromStoredForm(row.data, row.members, inTable ? reference.attribute : undefined);
      const after = withoutReference(before, reference.attribute, id);
      if (ctx.touch !== undefined) after.meta = ctx.touch(after);
      const data = inTable ? toStoredForm(after, reference.attribute).data : after;
      await tx.query(`UPDATE ${t.resources} SET version = $4, last_modified = $5, data = $6::jsonb WHERE tenant = $1 AND resource_type = $2 AND id = $3`, [
        ...key,
        after.meta.version,
        after.meta.lastModified,
        JSON.stringify(data),
      ]);
      if (inTable) {
        await tx.query(`DELETE FROM ${t.members} WHERE tenant = $1 AND resource_type = $2 AND group_id = $3 AND member_id = $4`, [...key, id]);
      }
      cascaded.push({ resourceType: reference.resourceType, before, after });
    }
  }
  return cascaded;
}

/** A copy of `resource` without the elements of `attribute` whose `value` is `id` (`[]` when none remain, as the memory store). */
function withoutReference(resource: ScimResource, attribute: string, id: string): ScimResource {
  const copy = structuredClone(resource) as ScimResource & Record<string, unknown>;
  const elements = copy[attribute];
  if (!Array.isArray(elements)) return copy;
  const kept = elements.filter((element) => !(typeof element === 'object' && element !== null && (element as { value?: unknown }).value === id));
  copy[attribute] = kept;
  return copy;
}
