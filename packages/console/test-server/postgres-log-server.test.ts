import pg from 'pg';
import { fromPgPool } from '@scimkit/postgres';
import { serverDatabase } from '../../postgres/test-server/server-database.js';
import { describePostgresLog } from '../test/postgres-log-suite.js';

describePostgresLog('server', async () => {
  const database = await serverDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  return {
    client: fromPgPool(pool),
    close: async () => {
      await pool.end();
      await database.drop();
    },
  };
});
