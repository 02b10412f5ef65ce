import { PGlite } from '@electric-sql/pglite';
import { fromPGlite } from '@scimkit/postgres';
import { describePostgresLog } from './postgres-log-suite.js';

describePostgresLog('PGlite', async () => {
  const db = new PGlite();
  return { client: fromPGlite(db), close: () => db.close() };
});
