import { comparisonKey, URN, type Filter } from '@scimkit/core';

/** A filter the database answers from an indexed column: `userName eq "…"`, `externalId eq "…"`, `id eq "…"`. */
export interface IndexedEquality {
  readonly column: 'id' | 'user_name' | 'external_id';
  readonly value: string;
}

const COLUMNS: Readonly<Record<string, IndexedEquality['column']>> = { id: 'id', username: 'user_name', externalid: 'external_id' };

/**
 * The column and value for a filter this store pushes down to SQL, or undefined for every other
 * filter (the core then evaluates it in memory). Attribute names are case-insensitive and may carry
 * the User schema URN. `user_name` holds `comparisonKey` names (NFC, lower-cased), so its value is keyed too.
 */
export function indexedEquality(filter: Filter): IndexedEquality | undefined {
  if (filter.kind !== 'compare' || filter.op !== 'eq' || typeof filter.value !== 'string') return undefined;
  const { uri, attr, subAttr } = filter.path;
  if (subAttr !== undefined || (uri !== undefined && uri.toLowerCase() !== URN.user.toLowerCase())) return undefined;
  const column = Object.hasOwn(COLUMNS, attr.toLowerCase()) ? COLUMNS[attr.toLowerCase()] : undefined;
  if (column === undefined) return undefined;
  return { column, value: column === 'user_name' ? comparisonKey(filter.value, false) : filter.value };
}
