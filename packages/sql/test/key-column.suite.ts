import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createSchemaRegistry, URN, userResourceType, type ScimLogRecord, type ScimResource } from '@scimkit/core';
import { compileFilter, parseFilter } from '@scimkit/core/engine';
import { createSqlStore, type SqlConnection, type SqlStoreOptions } from '../src/index.js';

const model = createSchemaRegistry({ resourceTypes: [userResourceType] }).resourceType('User')!;
const USER = { unique: [{ path: 'userName', caseExact: false }] };
const meta = { resourceType: 'User', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' };

/** Names in NFC, NFD, a mixed form (neither), and other cases: what a dialect without NFC cannot compare in SQL. */
const NAMES = ['jos\u00e9', 'Tr\u00e2\u0301n', 'TR\u1ea4M', 'tra\u0302\u0301p', '\u00c9mile', 'zeta', 'Zo\u00eb', 'a_b%c'];
const FILTERS = [
  'userName eq "JOSE\u0301"',
  'userName eq "tr\u1ea5n"',
  'userName eq "TRA\u0302\u0301M"',
  'userName co "\u1ea5"',
  'userName sw "TR\u00c2\u0301"',
  'userName ew "E\u0300"',
  'userName ew "MILE"',
  'userName gt "tr\u1ea5n"',
  'userName le "e\u0301"',
  'userName ne "zo\u00cb"',
  'userName co "_B%"',
];

/**
 * A `key` column (the value's comparison key, filled by the store) makes caseExact:false filters
 * and uniqueness exact in SQL where the dialect has no NFC (MySQL/MariaDB; SQLite without the
 * store's functions): the same ids as the in-memory evaluator, nothing confirmed in JavaScript.
 */
export function describeKeyColumn(name: string, fresh: () => Promise<SqlConnection>, options: Partial<SqlStoreOptions> = {}): void {
  describe(`a key column for caseExact:false text on ${name}`, () => {
    it('filters and uniqueness compare the NFC, lower-cased key exactly, in SQL', async () => {
      const connection = await fresh();
      // MySQL/MariaDB: the key column compares byte for byte (a _ci collation would make é equal e).
      const binary = connection.dialect === 'mysql' ? ' CHARACTER SET utf8mb4 COLLATE utf8mb4_bin' : '';
      await sql.raw(`CREATE TABLE people (id VARCHAR(36) PRIMARY KEY, login VARCHAR(100) NOT NULL, login_key VARCHAR(100)${binary} NOT NULL UNIQUE, version INTEGER NOT NULL)`).execute(connection.db);
      const logs: ScimLogRecord[] = [];
      const store = createSqlStore({
        ...connection,
        ...options,
        mapping: { User: { table: 'people', id: { column: 'id' }, version: { column: 'version', kind: 'counter' }, attributes: { userName: { column: 'login', key: 'login_key' } } } },
        logger: { log: (record) => logs.push(record) },
      });
      const users: ScimResource[] = [];
      for (const userName of NAMES) {
        const user: ScimResource = { schemas: [URN.user], id: globalThis.crypto.randomUUID(), userName, meta };
        expect((await store.create('User', user, USER)).ok).toBe(true);
        users.push(user);
      }
      // The same name in NFD and upper case (the key column's unique index, and the check before it).
      expect(await store.create('User', { schemas: [URN.user], id: globalThis.crypto.randomUUID(), userName: 'JOSE\u0301', meta }, USER)).toMatchObject({ ok: false, reason: 'uniqueness' });
      const stored = await sql<{ login: string }>`SELECT login FROM people ORDER BY login`.execute(connection.db);
      expect(stored.rows.map((r) => r.login).sort()).toEqual([...NAMES].sort());
      let matched = 0;
      for (const filter of FILTERS) {
        const parsed = parseFilter(filter);
        if (!parsed.ok) throw new Error(parsed.error.detail);
        const matches = compileFilter(parsed.value, model);
        if (!matches.ok) throw new Error(matches.error.detail);
        const expected = users.filter((u) => matches.value(u)).map((u) => u.id).sort();
        const found = await store.query('User', { filter: parsed.value, semantics: { matches: matches.value, attribute: (path) => model.facts(path) } });
        expect(found.resources.map((r) => r.id).sort(), filter).toEqual(expected);
        matched += expected.length;
      }
      expect(matched).toBeGreaterThan(15);
      expect(logs.filter((r) => /not pushed down/.test(r.message))).toEqual([]);
    });
  });
}
