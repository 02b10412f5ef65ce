import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cachedStatements } from '../src/sqlite-statements.js';
import { createSqlStore, fromBetterSqlite3 } from '../src/index.js';
import { createAppSchema } from '../../../examples/own-tables/src/app-schema.js';
import { mapping } from '../../../examples/own-tables/src/mapping.js';

const meta = () => ({ resourceType: 'User', created: new Date().toISOString(), lastModified: new Date().toISOString(), version: 'W/"0"' });

/** A database whose prepare calls are counted. */
function counted(): { database: Database.Database; prepared: string[] } {
  const database = new Database(':memory:');
  const prepared: string[] = [];
  const prepare = database.prepare.bind(database);
  (database as { prepare: unknown }).prepare = (source: string) => {
    prepared.push(source);
    return prepare(source);
  };
  return { database, prepared };
}

describe('prepared statements kept per SQLite database (cachedStatements)', () => {
  it('prepares a text that repeats twice, then hands out the kept Statement', () => {
    const { database, prepared } = counted();
    const host = cachedStatements(database, 10);
    const first = host.prepare('SELECT 1 AS one');
    const second = host.prepare('SELECT 1 AS one');
    const third = host.prepare('SELECT 1 AS one');
    const fourth = host.prepare('SELECT 1 AS one');
    expect(prepared).toHaveLength(2);
    expect(first).not.toBe(second);
    expect(third).toBe(second);
    expect(fourth).toBe(second);
  });

  it('keeps at most `max` texts; 0 keeps none', () => {
    const { database, prepared } = counted();
    const host = cachedStatements(database, 2);
    for (let round = 0; round < 3; round++) for (const n of [1, 2, 3]) host.prepare(`SELECT ${n} AS n`);
    // 1 and 2 kept after their second sighting; 3 prepared every time.
    expect(prepared.filter((s) => s === 'SELECT 1 AS n')).toHaveLength(2);
    expect(prepared.filter((s) => s === 'SELECT 3 AS n')).toHaveLength(3);
    const none = counted();
    const bare = cachedStatements(none.database, 0);
    for (let i = 0; i < 3; i++) bare.prepare('SELECT 1');
    expect(none.prepared).toHaveLength(3);
  });

  it('hands out a fresh Statement while the kept one is busy with an open iterator', () => {
    const { database } = counted();
    const host = cachedStatements(database, 10);
    const text = 'SELECT 1 AS n UNION ALL SELECT 2';
    host.prepare(text);
    const kept = host.prepare(text) as unknown as Database.Statement;
    const iterator = kept.iterate();
    iterator.next();
    const other = host.prepare(text) as unknown as Database.Statement;
    expect(other).not.toBe(kept);
    expect(other.all()).toEqual([{ n: 1 }, { n: 2 }]);
    iterator.return?.();
    expect(host.prepare(text)).toBe(kept);
  });

  it('a store over kept statements reads what it wrote, and still does after the schema changes', async () => {
    const { database, prepared } = counted();
    const connection = fromBetterSqlite3(database);
    await createAppSchema(connection.db, 'sqlite');
    const store = createSqlStore({ ...connection, mapping, unmapped: 'ignore' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = crypto.randomUUID();
      const created = await store.create('User', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], id, userName: `u${i}@example.com`, displayName: `U ${i}`, meta: meta() }, { unique: [{ path: 'userName', caseExact: false }] });
      expect(created.ok).toBe(true);
      ids.push(id);
    }
    const before = prepared.length;
    for (const id of ids) expect((await store.get('User', id))?.['displayName']).toMatch(/^U \d$/);
    // Five reads of one shape: prepared at its first and second sighting, then the kept statement.
    expect(prepared.length - before).toBe(2);
    database.exec('ALTER TABLE users ADD COLUMN nick TEXT');
    database.exec(`UPDATE users SET display_name = 'Changed' WHERE id = '${ids[0]}'`);
    expect((await store.get('User', ids[0] as string))?.['displayName']).toBe('Changed');
  });
});
