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
 * The referrers of the resource whose tenant and id are the SQL expressions `tenant` and `id`, as
 * one jsonb array of `[referenced id, referrer document]` pairs in the referrers' creation order
 * (NULL when none): a column that a read adds (`StoreContext.referrers`), so the groups of a user
 * come with the user in one statement.
 *
 * Through the members table it is one probe of the member index (`lower(normalize(member_id,
 * NFC))`), and only for a resource some group holds the walk up the whole nesting (the function of
 * {@link referrersFunction}), so the core's next levels (the groups of the groups, for `indirect`
 * groups) are answered from the same read. An attribute kept in the document is one level, by a
 * containment test on every document of the type. Matches as `members.value eq` does: strings
 * only, NFC and lower-cased unless `caseExact`.
 */
export function referrersColumn(t: StoreTables, source: ReferrerSource, tenant: string, id: string): string {
  const { lookup } = source;
  const type = quoteLiteral(lookup.resourceType);
  if (source.inTable) {
    const exact = lookup.caseExact ? ` AND m.member_id = ${id}` : '';
    return `CASE WHEN EXISTS (SELECT 1 FROM ${t.members} m WHERE m.tenant = ${tenant} AND m.resource_type = ${type} AND lower(normalize(m.member_id, NFC)) = lower(normalize(${id}, NFC))${exact}) THEN ${t.referrers}(${tenant}, ${type}, ${id}::text, ${String(lookup.caseExact)}) END`;
  }
  const attribute = `g.data->${quoteLiteral(lookup.attribute)}`;
  const same = lookup.caseExact ? `(e->>'value') = ${id}` : `lower(normalize(e->>'value', NFC)) = lower(normalize(${id}, NFC))`;
  return `(SELECT jsonb_agg(jsonb_build_array(${id}::text, g.data) ORDER BY g.seq) FROM ${t.resources} g WHERE g.tenant = ${tenant} AND g.resource_type = ${type}
    AND EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${attribute}) = 'array' THEN ${attribute} ELSE '[]'::jsonb END) e WHERE jsonb_typeof(e->'value') = 'string' AND ${same}))`;
}

/**
 * The function (schema version 7) that walks up from a resource through the members table of the
 * group type `group_type`: the groups holding it, the groups holding those, … (a recursive query;
 * `UNION` stops at cycles), each step a probe of the member index. Returns `[member id, group
 * document]` pairs in the groups' creation order, NULL when none. PL/pgSQL keeps its plan for the
 * session; STABLE, so it reads with the calling statement's snapshot.
 */
export function referrersFunction(t: StoreTables): string {
  const holders = (member: string) =>
    `${t.members} m WHERE m.tenant = p_tenant AND m.resource_type = p_group_type AND lower(normalize(m.member_id, NFC)) = lower(normalize(${member}, NFC)) AND (NOT p_case_exact OR m.member_id = ${member})`;
  return `CREATE FUNCTION ${t.referrers}(p_tenant text, p_group_type text, p_id text, p_case_exact boolean) RETURNS jsonb LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
    BEGIN
      RETURN (WITH RECURSIVE walk(member, gid) AS (
          SELECT p_id, m.group_id FROM ${holders('p_id')}
          UNION
          SELECT w.gid, m.group_id FROM walk w, LATERAL (SELECT m.group_id FROM ${holders('w.gid')}) m
        )
        SELECT jsonb_agg(jsonb_build_array(w.member, g.data) ORDER BY g.seq, w.member) FROM walk w JOIN ${t.resources} g ON g.tenant = p_tenant AND g.resource_type = p_group_type AND g.id = w.gid);
    END
  $$`;
}

/** What a referrers column read: the referrers of each id it reached, the referrers shared as one object per id. */
export interface ReadReferrers {
  /** Referenced id → its referrers, in order. */
  readonly of: ReadonlyMap<string, readonly ScimResource[]>;
  /** Every referrer object read. */
  readonly referrers: readonly ScimResource[];
  /** The column walked the whole nesting: a referrer without an entry in `of` has none. */
  readonly complete: boolean;
}

/** Parses a referrers column (the member attribute of a referrer left out: it is not read). */
export function readReferrers(source: ReferrerSource, value: unknown): ReadReferrers {
  const of = new Map<string, ScimResource[]>();
  const objects = new Map<string, ScimResource>();
  if (Array.isArray(value)) {
    for (const pair of value as [string, Record<string, unknown>][]) {
      const [member, data] = pair;
      const id = String(data['id']);
      let referrer = objects.get(id);
      if (referrer === undefined) {
        if (source.inTable) delete data[source.lookup.attribute];
        referrer = data as unknown as ScimResource;
        objects.set(id, referrer);
      }
      let list = of.get(member);
      if (list === undefined) of.set(member, (list = []));
      if (!list.includes(referrer)) list.push(referrer);
    }
  }
  return { of, referrers: [...objects.values()], complete: source.inTable };
}

/**
 * `ScimStore.referrers` for resources not read with their referrers: one statement for all of
 * them, the ids as one JSON array parameter. Returns each id's referrers and, through the
 * members table, the whole nesting above them (see referrersColumn).
 */
export async function queryReferrers(client: SqlQueryable, t: StoreTables, source: ReferrerSource, tenant: string, ids: readonly string[], name?: (text: string) => string | undefined): Promise<ReadReferrers> {
  const text = `SELECT jsonb_agg(p) AS referrers FROM jsonb_array_elements_text($2::jsonb) AS x(id), LATERAL jsonb_array_elements(coalesce(${referrersColumn(t, source, '$1', 'x.id')}, '[]'::jsonb)) AS p`;
  const rows = await client.query<{ referrers: unknown }>(text, [tenant, JSON.stringify(ids)], name?.(text));
  return readReferrers(source, rows.rows[0]?.referrers);
}

/** The referrals of `resources` from what was read. */
export function referralsOf(read: ReadReferrers, resources: readonly ScimResource[]): Referral[] {
  const out: Referral[] = [];
  for (const resource of resources) for (const referrer of read.of.get(resource.id) ?? []) out.push({ id: resource.id, referrer });
  return out;
}
