import { afterAll, beforeAll, describe, it } from 'vitest';
import { crashAndRestart } from '../../../examples/full-server/test/webhook-crash.js';
import { serverDatabase } from '../../postgres/test-server/server-database.js';

let database: { url: string; drop: () => Promise<void> };
beforeAll(async () => {
  database = await serverDatabase();
});
afterAll(async () => {
  await database.drop();
});

describe('full server with SCIM_WEBHOOK_URL on a PostgreSQL server', () => {
  it('an event acknowledged but not delivered when the process is killed (-9) is delivered after the restart, signed', async () => {
    await crashAndRestart(database.url);
  }, 120_000);
});
