import type { AttrPath, AttributeFacts } from '@scimkit/core';
import { sql } from 'kysely';
import type { CompiledMapping, MappedAttribute } from './compile-mapping.js';
import type { DialectSql } from './dialect.js';
import type { ColumnResolver, ColumnTarget } from './translate-filter.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INTEGER = /^-?\d{1,15}$/;

/** Whether `id` is a value the id column can hold (a lower-case UUID for a uuid column: ids read back lower-case). */
export function acceptsId(mapping: CompiledMapping, id: string): boolean {
  const type = mapping.table.id.type ?? 'uuid';
  if (type === 'uuid') return UUID.test(id);
  if (type === 'integer') return INTEGER.test(id);
  return id.length > 0;
}

/**
 * The resolver of one mapped table, aliased `t`: mapped columns (a column shared by several paths is
 * exact only for its first path, or when no JSON column may hold a differing value), `id`, `meta`
 * instants, the join table for `members.value`, and `absent` for what the store never keeps.
 */
export function mappedResolver(mapping: CompiledMapping, dialect: DialectSql, memberTable?: { readonly alias: string }): ColumnResolver {
  const byKeys = new Map<string, MappedAttribute>();
  const firstOfColumn = new Set<MappedAttribute>();
  const seenColumns = new Set<string>();
  for (const attribute of mapping.attributes) {
    if (!seenColumns.has(attribute.column)) {
      seenColumns.add(attribute.column);
      firstOfColumn.add(attribute);
    }
    const key = keyOf(attribute.keys);
    if (!byKeys.has(key)) byKeys.set(key, attribute);
  }
  const elementsOf = (top: string) => mapping.attributes.filter((a) => a.element !== undefined && (a.element.keys[0] ?? '').toLowerCase() === top);
  const json = mapping.table.json !== undefined;
  const column = (name: string) => sql.ref(`t.${name}`);
  const instantColumn = (name: string | undefined): ColumnTarget | undefined =>
    name === undefined ? undefined : { kind: 'column', sql: column(name), type: 'dateTime', caseExact: true };

  return {
    resolve(path: AttrPath, facts: AttributeFacts | undefined): ColumnTarget | undefined {
      const resolved = mapping.model.resolve(path);
      if (resolved === undefined || facts === undefined) return undefined;
      const keys = resolved.keys;
      const top = (keys[0] ?? '').toLowerCase();
      if (keys.length === 1 && top === 'id') {
        const id = column(mapping.table.id.column);
        const text = dialect.name === 'postgres' ? sql`CAST(${id} AS text)` : dialect.name === 'mysql' ? sql`CAST(${id} AS CHAR)` : sql`CAST(${id} AS TEXT)`;
        return { kind: 'column', sql: id, type: 'string', caseExact: true, accepts: (value) => acceptsId(mapping, value), text };
      }
      if (top === 'meta') {
        const sub = (keys[1] ?? '').toLowerCase();
        if (sub === 'resourcetype') return { kind: 'column', sql: sql.lit(mapping.resourceType), type: 'string', caseExact: facts.caseExact };
        if (sub === 'created') return instantColumn(mapping.table.created);
        if (sub === 'lastmodified') return instantColumn(mapping.table.lastModified ?? (mapping.table.version.kind === 'timestamp' ? mapping.table.version.column : undefined));
        return undefined;
      }
      if (top === 'members' && mapping.table.members !== undefined && memberTable !== undefined) {
        const sub = (keys[1] ?? 'value').toLowerCase();
        if (sub !== 'value') return undefined;
        const m = mapping.table.members;
        const rows = sql`FROM ${sql.table(m.table)} AS ${sql.id(memberTable.alias)} WHERE ${sql.ref(`${memberTable.alias}.${m.group}`)} = ${column(mapping.table.id.column)}`;
        return {
          kind: 'rows',
          any: sql<boolean>`EXISTS (SELECT 1 ${rows})`,
          equals: (value) => sql<boolean>`EXISTS (SELECT 1 ${rows} AND ${sql.ref(`${memberTable.alias}.${m.member}`)} = ${value})`,
        };
      }
      // `emails` alone compares its `value` (RFC 7644 §3.4.2.2), like `emails.value`.
      const effective = resolved.target.type === 'complex' && resolved.target.multiValued ? [...keys, 'value'] : keys;
      const mapped = byKeys.get(keyOf(effective));
      if (mapped !== undefined) {
        if (mapped.read !== undefined || mapped.write !== undefined) return undefined;
        if (json && !firstOfColumn.has(mapped)) return undefined;
        if (mapped.element !== undefined) {
          // One typed element: exact only when it is the attribute's only source of elements.
          if (json || elementsOf(top).length !== 1) return undefined;
          return { kind: 'column', sql: column(mapped.column), type: mapped.type, caseExact: mapped.caseExact, emptyIsAbsent: true };
        }
        return { kind: 'column', sql: column(mapped.column), type: mapped.type, caseExact: mapped.caseExact, ...(mapped.key === undefined ? {} : { folded: column(mapped.key) }) };
      }
      // A parent of a mapped value (`name`), or inside a mapped element (`emails.type`): read back, not absent.
      const related = mapping.attributes.some((a) => startsWith(a.keys, effective) || (a.element !== undefined && startsWith(effective, a.element.keys)));
      if (json || related || (top === 'members' && mapping.table.members !== undefined)) return undefined;
      return { kind: 'absent' };
    },
  };
}

function keyOf(keys: readonly string[]): string {
  return keys.map((k) => k.toLowerCase()).join('\u0000');
}

function startsWith(keys: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= keys.length && prefix.every((k, i) => k.toLowerCase() === (keys[i] ?? '').toLowerCase());
}
