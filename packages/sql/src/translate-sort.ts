import type { AttributeFacts, SortSpec } from '@scimkit/core';
import { sql, type RawBuilder } from 'kysely';
import { dialectSql, type DialectSql, type SqlDialectName } from './dialect.js';
import type { ColumnResolver } from './translate-filter.js';

/**
 * `sortBy` as ORDER BY terms with the in-memory comparator's order (RFC 7644 §3.4.2.3): missing
 * values last ascending and first descending, text by code point (lower-cased when caseExact is
 * false), instants, numbers; ties keep the base order, which the caller appends (the id).
 * Undefined when the path is not a plain column: sort the rows read instead.
 */
export function translateSort(
  sort: SortSpec,
  options: { readonly dialect: SqlDialectName | DialectSql; readonly resolver: ColumnResolver; readonly facts: (path: SortSpec['path']) => AttributeFacts | undefined },
): RawBuilder<unknown>[] | undefined {
  const dialect = typeof options.dialect === 'string' ? dialectSql(options.dialect) : options.dialect;
  const facts = options.facts(sort.path);
  if (facts === undefined) return undefined;
  const target = options.resolver.resolve(sort.path, facts);
  if (target === undefined || target.kind !== 'column') return undefined;
  const c = target.text ?? target.sql;
  let key: RawBuilder<unknown> | undefined;
  switch (target.type) {
    case 'dateTime':
      key = dialect.instantMs(c);
      break;
    case 'integer':
    case 'decimal':
    case 'boolean':
      key = c;
      break;
    default: {
      const text = target.caseExact ? c : dialect.lower(c);
      key = text === undefined ? undefined : dialect.orderText(text);
    }
  }
  if (key === undefined) return undefined;
  const direction = sql.raw(sort.order === 'descending' ? 'DESC' : 'ASC');
  const missing = target.emptyIsAbsent === true ? sql`CASE WHEN ${c} IS NULL OR ${c} = '' THEN 1 ELSE 0 END` : sql`CASE WHEN ${c} IS NULL THEN 1 ELSE 0 END`;
  return [sql`${missing} ${direction}`, sql`${key} ${direction}`];
}
