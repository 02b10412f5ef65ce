import { sql, type RawBuilder } from 'kysely';
import type { SqlDialectName } from './dialect.js';

/**
 * The aggregate of `values` over a subquery's rows as one JSON array of arrays (NULL over no row),
 * per dialect: how a read carries the rows of another table in one column (a group's members, a
 * user's groups).
 */
export function jsonRows(dialect: SqlDialectName, values: readonly RawBuilder<unknown>[]): RawBuilder<unknown> {
  const element = sql.join(values);
  if (dialect === 'postgres') return sql`json_agg(json_build_array(${element}))`;
  if (dialect === 'mysql') return sql`JSON_ARRAYAGG(JSON_ARRAY(${element}))`;
  return sql`json_group_array(json_array(${element}))`;
}

/** The arrays a {@link jsonRows} column holds (pg parses JSON itself; MySQL and SQLite give text); [] for NULL or anything else. */
export function readJsonRows(raw: unknown): unknown[][] {
  let list: unknown = raw;
  if (typeof raw === 'string') {
    try {
      list = JSON.parse(raw);
    } catch {
      return [];
    }
  }
  return Array.isArray(list) ? (list.filter((e) => Array.isArray(e)) as unknown[][]) : [];
}
