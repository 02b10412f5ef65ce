import { PGlite } from '@electric-sql/pglite';
import Database from 'better-sqlite3';
import { describeStoreConformance } from '@scimkit/core/testing';
import { createSqlStore, fromBetterSqlite3, fromPGlite } from '../src/index.js';
import { createAppSchema as createOwnTables } from '../../../examples/own-tables/src/app-schema.js';
import { mapping as ownTablesMapping } from '../../../examples/own-tables/src/mapping.js';
import { ownTablesProfile } from './profile.js';

describeStoreConformance(
  'mapped SQL store on SQLite (better-sqlite3)',
  async () => {
    const connection = fromBetterSqlite3(new Database(':memory:'));
    await createOwnTables(connection.db, 'sqlite');
    return createSqlStore({ ...connection, mapping: ownTablesMapping });
  },
  { profile: ownTablesProfile },
);

// One PGlite for the file (it takes seconds to start), a fresh schema per test.
let pglite: PGlite | undefined;
let schemas = 0;

describeStoreConformance(
  'mapped SQL store on PostgreSQL (PGlite)',
  async () => {
    pglite ??= new PGlite();
    const schema = `kit_${++schemas}`;
    await pglite.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
    const connection = fromPGlite(pglite);
    await createOwnTables(connection.db, 'postgres');
    return createSqlStore({ ...connection, mapping: ownTablesMapping });
  },
  { profile: ownTablesProfile, timeout: 60_000 },
);
