import { PGlite } from '@electric-sql/pglite';
import Database from 'better-sqlite3';
import { describeStoreConformance } from '@scimkit/core/testing';
import { createSqlStore, fromBetterSqlite3, fromPGlite } from '../src/index.js';
import { createAppSchema as createOwnTables } from '../../../examples/own-tables/src/app-schema.js';
import { mapping as ownTablesMapping } from '../../../examples/own-tables/src/mapping.js';
import { faultyPGlite, faultySqlite, StepFaults } from './faulty-backend.js';
import { ownTablesProfile } from './profile.js';

describeStoreConformance(
  'mapped SQL store on SQLite (better-sqlite3)',
  async () => {
    const connection = fromBetterSqlite3(new Database(':memory:'));
    await createOwnTables(connection.db, 'sqlite');
    return createSqlStore({ ...connection, mapping: ownTablesMapping });
  },
  {
    profile: ownTablesProfile,
    // Each statement of a write failing in turn, as a lost connection: 503, nothing half-written.
    faults: async () => {
      const faults = new StepFaults();
      const connection = fromBetterSqlite3(faultySqlite(new Database(':memory:'), faults));
      await createOwnTables(connection.db, 'sqlite');
      return { store: createSqlStore({ ...connection, mapping: ownTablesMapping }), failAt: (step) => faults.failAt(step), heal: () => faults.heal() };
    },
  },
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
  {
    profile: ownTablesProfile,
    timeout: 60_000,
    faults: async () => {
      pglite ??= new PGlite();
      const schema = `kit_${++schemas}`;
      await pglite.exec(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
      const faults = new StepFaults();
      const connection = fromPGlite(faultyPGlite(pglite, faults));
      await createOwnTables(connection.db, 'postgres');
      return { store: createSqlStore({ ...connection, mapping: ownTablesMapping }), failAt: (step) => faults.failAt(step), heal: () => faults.heal() };
    },
  },
);
