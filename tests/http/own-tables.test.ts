import { PGlite } from '@electric-sql/pglite';
import Database from 'better-sqlite3';
import { fromBetterSqlite3, fromPGlite } from '@scimkit/sql';
import { describeOwnTables } from './own-tables.suite.js';

describeOwnTables('SQLite (better-sqlite3)', async () => fromBetterSqlite3(new Database(':memory:')));

// One PGlite for the file (it takes seconds to start), a fresh schema per test.
let pglite: PGlite | undefined;
let schemas = 0;
describeOwnTables('PostgreSQL (PGlite)', async () => {
  pglite ??= new PGlite();
  const schema = `own${++schemas}`;
  await pglite.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
  return fromPGlite(pglite);
});
