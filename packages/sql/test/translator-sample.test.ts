import { createSchemaRegistry, userResourceType, type Filter } from '@scimkit/core';
import { parseFilter } from '@scimkit/core/engine';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { translateFilter, type ColumnResolver } from '../src/index.js';

// A Kysely that only compiles (no connection): the SQL text and parameters go to your own client.
const compiler = new Kysely<any>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const users = createSchemaRegistry({ resourceTypes: [userResourceType] }).resourceType('User')!;

/** For a store written on Drizzle or Prisma: the filter as SQL text and parameters, through your own columns. */
export function filterToSql(filter: Filter): { text: string; parameters: readonly unknown[]; exact: boolean } {
  const columns: Record<string, string> = { username: 'email', 'name.givenname': 'first_name', active: 'is_active' };
  const resolver: ColumnResolver = {
    resolve(path, facts) {
      const column = columns[`${path.attr}${path.subAttr === undefined ? '' : `.${path.subAttr}`}`.toLowerCase()];
      if (column === undefined || facts === undefined) return undefined; // not translatable: confirm each row yourself
      return { kind: 'column', sql: sql.ref(`u.${column}`), type: facts.type, caseExact: facts.caseExact };
    },
  };
  const translated = translateFilter(filter, { dialect: 'postgres', resolver, facts: (path) => users.facts(path) });
  const compiled = sql`SELECT u.id FROM users AS u WHERE ${translated.where}`.compile(compiler);
  // Drizzle: db.execute(sql.raw(...)) with the parameters bound; Prisma: prisma.$queryRawUnsafe(compiled.sql, ...compiled.parameters)
  return { text: compiled.sql, parameters: compiled.parameters, exact: translated.exact };
}

describe('the translator sample (docs/stores/own-tables.md)', () => {
  it('turns a filter into parameterised SQL over the resolver\'s columns', () => {
    const parsed = parseFilter('userName eq "BJensen@example.com" and active eq true');
    if (!parsed.ok) throw new Error(parsed.error.detail);
    const out = filterToSql(parsed.value);
    expect(out.exact).toBe(true);
    expect(out.text).toContain('lower(normalize("u"."email", NFC)) = $1');
    expect(out.text).toContain('"u"."is_active" = true');
    expect(out.parameters).toEqual(['bjensen@example.com']);
  });

  it('says when a part could not be translated (the SQL is then a superset to confirm row by row)', () => {
    const parsed = parseFilter('title eq "Boss" or userName sw "b"');
    if (!parsed.ok) throw new Error(parsed.error.detail);
    const out = filterToSql(parsed.value);
    expect(out.exact).toBe(false);
  });
});
