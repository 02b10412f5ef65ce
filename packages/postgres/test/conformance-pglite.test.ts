import { describeStoreConformance } from '@scimkit/core/testing';
import { createPostgresStore, fromPGlite, migrate } from '@scimkit/postgres';
import { beforeAll } from 'vitest';
import { faultyPGlite, StepFaults } from './faulty-backend.js';
import { freshSchema, sharedPGlite } from './fresh-schema.js';

// Starting PGlite takes seconds on a busy machine: once, before the kit's per-test hooks.
beforeAll(() => freshSchema(), 120_000);

let faultySchemas = 0;
describeStoreConformance('PostgreSQL store on PGlite', async () => createPostgresStore(await freshSchema()), {
  timeout: 30_000,
  // Each statement of a write failing in turn, as a terminated connection: 503, nothing half-written.
  faults: async () => {
    const faults = new StepFaults();
    const client = fromPGlite(faultyPGlite(await sharedPGlite(), faults));
    const schema = `f${++faultySchemas}`;
    await migrate(client, { schema });
    return { store: createPostgresStore({ client, schema }), failAt: (step) => faults.failAt(step), heal: () => faults.heal() };
  },
});
