import { quoteLiteral, type StoreTables } from './sql-names.js';

/** The version column's counter (nextCounterVersion in @scimkit/core): `W/"n"`, at most 15 digits. */
const COUNTER = `'^W/"[0-9]{1,15}"$'`;

/** The next counter after the row's version, as SQL over the alias `r`; else the fresh version `$8`. */
const NEXT_VERSION = `(CASE WHEN r.version ~ ${COUNTER} THEN 'W/"' || (substr(r.version, 4, length(r.version) - 4)::bigint + 1)::text || '"' ELSE $8 END)`;

/**
 * The row's document with the assignment `$4` (ScimStore.assign's `values`: top-level values, and
 * objects of sub-attributes for the complex attributes `parents`, merged into the attribute's object,
 * created when the row has none) and the new `meta.version` and `meta.lastModified` (`$6`). `$4`
 * itself is concatenated first (its plain values are the new ones), then each parent's merge: a
 * statement per set of parents, so the usual PATCH (plain values only) is two concatenations.
 */
function assignedData(parents: readonly string[]): string {
  const merges = parents.map((parent) => {
    const name = quoteLiteral(parent);
    return ` || jsonb_build_object(${name}, CASE WHEN jsonb_typeof(r.data->${name}) = 'object' THEN (r.data->${name}) || ($4::jsonb->${name}) ELSE $4::jsonb->${name} END)`;
  });
  return `r.data || $4::jsonb${merges.join('')}
      || jsonb_build_object('meta', coalesce(r.data->'meta', '{}'::jsonb) || jsonb_build_object('version', ${NEXT_VERSION}, 'lastModified', $6::text))`;
}

/**
 * A PATCH pushed down (ScimStore.assign) as one statement: the row updated only when the
 * assignment changes it (`data @> $4` holds when every assigned value is already there: they are
 * scalars, and sub-attribute objects nest one level) and its JSON text is short enough (`$7`: the limit minus the most the assignment can add; jsonb's text is never shorter
 * than the compact JSON the core measures) and, with `expected`, it is at version `$8`. Under READ
 * COMMITTED a concurrent writer's row is re-checked and the new values computed from it, so no
 * update is lost. Returns the written document, with the member rows (`members`) and the
 * referrers column (`extra`) as reads return them; no row: `assignMissSql` tells why. `parents`: the
 * keys of `$4` whose values are objects of sub-attributes (assignedData).
 *
 * $1 tenant, $2 resource type, $3 id, $4 values (JSON), $5 last_modified (instant), $6 lastModified
 * (text), $7 longest JSON text the row may have now, $8 the version after one that is not a counter,
 * [$9 expected version], [then, with `previous`, the keys whose previous values are returned: the
 * assigned attributes and `meta` (ScimStore's StoreAssignPrevious)].
 */
export function assignSql(t: StoreTables, parents: readonly string[], expected: boolean, previous: boolean, members: string, extra: string): string {
  // With `previous` (wantPrevious), the row as it was comes from a locking read of the same row in
  // the same statement (PostgreSQL before 18 has no `RETURNING old`): the lock is taken before the
  // update, so `old` is the row the update changes, also under a concurrent writer.
  const keys = expected ? '$10' : '$9';
  const old = previous
    ? ` FROM (SELECT o.data FROM ${t.resources} o WHERE o.tenant = $1 AND o.resource_type = $2 AND o.id = $3 FOR UPDATE) old`
    : '';
  const returned = previous ? `, (SELECT jsonb_object_agg(k, old.data->k) FROM unnest(${keys}::text[]) k WHERE old.data ? k) AS previous` : '';
  return `UPDATE ${t.resources} r SET version = ${NEXT_VERSION}, last_modified = $5::timestamptz, data = ${assignedData(parents)}${old}
    WHERE r.tenant = $1 AND r.resource_type = $2 AND r.id = $3${expected ? ' AND r.version = $9' : ''}
      AND NOT (r.data @> $4::jsonb) AND octet_length(r.data::text) <= $7
    RETURNING r.data${members}${extra}${returned}`;
}

/**
 * Why `assignSql` wrote no row (rare but for a PATCH that changes nothing): the row as it is, its
 * version, and whether it holds the assignment already. $1 tenant, $2 resource type, $3 id, $4 values.
 */
export function assignMissSql(t: StoreTables, members: string, extra: string): string {
  return `SELECT r.data${members}${extra}, r.version, r.data @> $4::jsonb AS holds FROM ${t.resources} r WHERE r.tenant = $1 AND r.resource_type = $2 AND r.id = $3`;
}
