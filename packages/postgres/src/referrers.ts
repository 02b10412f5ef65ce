import type { ReferenceLookup, Referral, ScimResource } from '@scimkit/core';
import type { SqlQueryable } from './sql-client.js';
import { quoteLiteral, type StoreTables } from './sql-names.js';

/** Where a lookup's attribute is kept: the members table (`Group.members` by default), or the document. */
export interface ReferrerSource {
  readonly lookup: ReferenceLookup;
  /** The lookup's attribute is the member attribute of its type: one indexed row per element. */
  readonly inTable: boolean;
}

/**
 * The referencing resources of the resource whose tenant and id are the SQL expressions `tenant`
 * and `id`, as one jsonb array of their documents in creation order (NULL when none): a correlated
 * subquery that a read adds as a column (`StoreContext.referrers`), so the groups of a user come
 * with the user in one statement. Through the members table it is one probe of the member index
 * (`lower(normalize(member_id, NFC))`); otherwise a containment test on every document of the type.
 * Matches as `members.value eq` does: strings only, NFC and lower-cased unless `caseExact`.
 */
export function referrersColumn(t: StoreTables, source: ReferrerSource, tenant: string, id: string): string {
  const { lookup } = source;
  const type = quoteLiteral(lookup.resourceType);
  const same = (value: string) => (lookup.caseExact ? `${value} = ${id}` : `lower(normalize(${value}, NFC)) = lower(normalize(${id}, NFC))`);
  let holds: string;
  if (source.inTable) {
    // The index key first (always), the exact comparison on top when caseExact.
    const exact = lookup.caseExact ? ` AND m.member_id = ${id}` : '';
    holds = `g.id IN (SELECT m.group_id FROM ${t.members} m WHERE m.tenant = ${tenant} AND m.resource_type = ${type} AND lower(normalize(m.member_id, NFC)) = lower(normalize(${id}, NFC))${exact})`;
  } else {
    const attribute = `g.data->${quoteLiteral(lookup.attribute)}`;
    holds = `EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${attribute}) = 'array' THEN ${attribute} ELSE '[]'::jsonb END) e WHERE jsonb_typeof(e->'value') = 'string' AND ${same(`(e->>'value')`)})`;
  }
  return `(SELECT jsonb_agg(g.data ORDER BY g.seq) FROM ${t.resources} g WHERE g.tenant = ${tenant} AND g.resource_type = ${type} AND ${holds})`;
}

/** The referrers read with `referrersColumn`, as resources (the member attribute left out: it is not read). */
export function referrersOfColumn(source: ReferrerSource, value: unknown): ScimResource[] {
  if (!Array.isArray(value)) return [];
  return value.map((data) => referrerOf(source, data as Record<string, unknown>));
}

function referrerOf(source: ReferrerSource, data: Record<string, unknown>): ScimResource {
  if (source.inTable) delete data[source.lookup.attribute];
  return data as unknown as ScimResource;
}

/**
 * `ScimStore.referrers` for resources not read with their referrers: one statement for all of
 * them, the ids as one JSON array parameter.
 */
export async function queryReferrers(client: SqlQueryable, t: StoreTables, source: ReferrerSource, tenant: string, ids: readonly string[]): Promise<Referral[]> {
  if (ids.length === 0) return [];
  const rows = await client.query<{ target: string; referrers: unknown }>(
    `SELECT x.id AS target, ${referrersColumn(t, source, '$1', 'x.id')} AS referrers FROM jsonb_array_elements_text($2::jsonb) WITH ORDINALITY AS x(id, ord) ORDER BY x.ord`,
    [tenant, JSON.stringify(ids)],
  );
  const out: Referral[] = [];
  for (const row of rows.rows) for (const referrer of referrersOfColumn(source, row.referrers)) out.push({ id: row.target, referrer });
  return out;
}
