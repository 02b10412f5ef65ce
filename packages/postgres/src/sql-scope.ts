import type { FilterSemantics } from '@scimkit/core';
import type { SqlParams } from './sql-params.js';
import { quoteLiteral, type StoreTables } from './sql-names.js';

/** A JSON value in SQL: its jsonb expression, and an expression of its text when it is a scalar. */
export interface JsonRef {
  readonly json: string;
  readonly text: string;
}

/** What translating one query needs: parameters, schema facts, table names, the group-members attribute. */
export interface SqlScope {
  readonly params: SqlParams;
  readonly semantics: FilterSemantics;
  readonly tables: StoreTables;
  /** Placeholders of the query's tenant and resource type. */
  readonly tenant: string;
  readonly resourceType: string;
  /** The attribute of this resource type kept in the members table (`members`), if any. */
  readonly memberAttribute?: string;
  /** A fresh SQL alias for a nested subquery. */
  alias(): string;
}

/**
 * `test` applied to the value at `keys` below `holder`, any-match where `multiValued` says a level
 * may hold several values (RFC 7644 §3.4.2.2): an array is searched element by element, a single
 * value is tested as it is, as the in-memory evaluator's `anyAt` does. A missing key is SQL NULL.
 */
export function anyAt(scope: SqlScope, holder: string, keys: readonly string[], multiValued: readonly boolean[], test: (value: JsonRef) => string): string {
  if (keys.length === 0) return test({ json: holder, text: `(${holder} #>> '{}')` });
  const [key = '', ...rest] = keys;
  const json = `${holder}->${quoteLiteral(key)}`;
  if (multiValued[0] !== true) {
    return rest.length === 0 ? test({ json, text: `(${holder}->>${quoteLiteral(key)})` }) : anyAt(scope, `(${json})`, rest, multiValued.slice(1), test);
  }
  const alias = scope.alias();
  const elements = `jsonb_array_elements(CASE WHEN jsonb_typeof(${json}) = 'array' THEN ${json} ELSE jsonb_build_array(${json}) END)`;
  return `EXISTS (SELECT 1 FROM ${elements} AS ${alias}(v) WHERE ${anyAt(scope, `${alias}.v`, rest, multiValued.slice(1), test)})`;
}

/** The rows of the members table that belong to the resource `r`, under alias `m`. */
export function memberRows(scope: SqlScope, m: string): string {
  return `${scope.tables.members} ${m} WHERE ${m}.tenant = ${scope.tenant} AND ${m}.resource_type = ${scope.resourceType} AND ${m}.group_id = r.id`;
}
