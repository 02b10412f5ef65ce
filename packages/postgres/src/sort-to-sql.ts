import type { SortSpec } from '@scimkit/core';
import { resolvePath } from './resolve-path.js';
import { quoteLiteral } from './sql-names.js';
import { memberRows, type SqlScope } from './sql-scope.js';

/** The sort of a query in SQL: the key expression (none without a sort), its type, and the direction. */
export interface SqlSort {
  /** Undefined: creation order only. */
  readonly key?: string;
  /** The SQL type a key's text converts back to (for a keyset cursor). */
  readonly type: string;
  readonly descending: boolean;
}

/**
 * The sort key of a sort (RFC 7644 §3.4.2.3), as the evaluator's compileSort orders: strings by
 * `caseExact` (code-point order), numbers numerically, dateTimes as instants, booleans false first;
 * a multi-valued attribute by its primary element, else its first. Undefined when the path cannot be
 * sorted in SQL (the store then sorts in memory).
 */
export function sortToSql(sort: SortSpec | undefined, scope: SqlScope): SqlSort | undefined {
  if (sort === undefined) return { type: 'text', descending: false };
  const descending = sort.order === 'descending';
  const resolved = resolvePath(sort.path, scope.semantics);
  // An attribute this type lacks: every resource has no value, creation order remains.
  if (resolved === undefined) return { type: 'text', descending };
  let keys = resolved.keys;
  let multiValued = resolved.multiValued;
  let target = resolved.target;
  if (target.type === 'complex') {
    if (!target.multiValued || resolved.subAttribute !== undefined) return undefined;
    const value = resolvePath({ ...(resolved.extension ? { uri: resolved.keys[0] } : {}), attr: resolved.attribute, subAttr: 'value' }, scope.semantics);
    if (value?.subAttribute === undefined) return undefined;
    keys = [...keys, value.subAttribute];
    multiValued = [...multiValued, false];
    target = value.target;
  }
  const pick = scope.tables.pick;
  // RFC 7644 §3.4.2.3 through every level, as the evaluator reads: an array by its primary element,
  // else its first. The pick function is called only for an array: a call of it (a SQL function
  // with a subquery, never inlined) costs about as much as the whole row's filter, and a sort key
  // is computed for every match.
  const picked = (json: string, multi: boolean | undefined): string => (multi === true ? `${pick}(${json})` : `(CASE WHEN jsonb_typeof(${json}) = 'array' THEN ${pick}(${json}) ELSE ${json} END)`);
  let json: string;
  const members = !resolved.extension && scope.memberAttribute !== undefined && resolved.attribute.toLowerCase() === scope.memberAttribute.toLowerCase();
  if (members) {
    const m = scope.alias();
    json = `(SELECT ${m}.element FROM ${memberRows(scope, m)} ORDER BY coalesce(${m}.element->>'primary' = 'true' AND jsonb_typeof(${m}.element->'primary') = 'boolean', false) DESC, ${m}.position LIMIT 1)`;
  } else {
    json = `r.data->${quoteLiteral(keys[0] ?? '')}`;
  }
  // The members' element is already picked.
  for (let i = 1; i < keys.length; i++) json = `${members && i === 1 ? json : picked(json, multiValued[i - 1])}->${quoteLiteral(keys[i] ?? '')}`;
  json = members && keys.length === 1 ? json : picked(json, multiValued[keys.length - 1]);
  return { key: sortKey(json, target.type, target.caseExact, scope), type: KEY_TYPE[target.type] ?? 'text', descending };
}

const KEY_TYPE: Readonly<Record<string, string>> = { integer: 'numeric', decimal: 'numeric', boolean: 'int', dateTime: 'timestamptz' };

/**
 * ORDER BY for a sort: resources without a value last ascending and first descending; ties in
 * creation order (`seq`; the evaluator's sort is stable). `reverse` gives the exact opposite order.
 */
export function orderBy(sort: SqlSort, reverse = false): string {
  const seq = reverse ? 'r.seq DESC' : 'r.seq';
  if (sort.key === undefined) return seq;
  const descending = sort.descending !== reverse;
  return `${sort.key} ${descending ? 'DESC NULLS FIRST' : 'ASC NULLS LAST'}, ${seq}`;
}

function sortKey(json: string, type: string, caseExact: boolean, scope: SqlScope): string {
  switch (type) {
    case 'integer':
    case 'decimal':
      return `(CASE WHEN jsonb_typeof(${json}) = 'number' THEN (${json} #>> '{}')::numeric END)`;
    case 'boolean':
      return `(CASE WHEN jsonb_typeof(${json}) = 'boolean' THEN (${json} #>> '{}')::boolean::int END)`;
    case 'dateTime':
      return `${scope.tables.instant}(CASE WHEN jsonb_typeof(${json}) = 'string' THEN ${json} #>> '{}' END)`;
    default: {
      const text = `(CASE WHEN jsonb_typeof(${json}) = 'string' THEN ${json} #>> '{}' END)`;
      return `${caseExact ? text : `lower(${text})`} COLLATE "C"`;
    }
  }
}
