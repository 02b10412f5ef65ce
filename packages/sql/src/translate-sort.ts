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
  const parts = sortParts(sort, options);
  if (parts === undefined) return undefined;
  const direction = sql.raw(parts.descending ? 'DESC' : 'ASC');
  return [sql`${parts.missing} ${direction}`, sql`${parts.key} ${direction}`];
}

/** The pieces of a sort: 1 when the value is missing (else 0), the comparable key, and the direction. */
export interface SortParts {
  readonly missing: RawBuilder<unknown>;
  readonly key: RawBuilder<unknown>;
  readonly descending: boolean;
}

/** As translateSort, in pieces (for keyset paging). */
export function sortParts(
  sort: SortSpec,
  options: { readonly dialect: SqlDialectName | DialectSql; readonly resolver: ColumnResolver; readonly facts: (path: SortSpec['path']) => AttributeFacts | undefined },
): SortParts | undefined {
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
  const missing = target.emptyIsAbsent === true ? sql`CASE WHEN ${c} IS NULL OR ${c} = '' THEN 1 ELSE 0 END` : sql`CASE WHEN ${c} IS NULL THEN 1 ELSE 0 END`;
  return { missing, key, descending: sort.order === 'descending' };
}
