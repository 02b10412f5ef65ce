import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqlStore, fromBetterSqlite3 } from '../src/index.js';
import { mapping as ownTablesMapping } from '../../../examples/own-tables/src/mapping.js';
import { retentionAndBound } from '../../events/test/outbox-scenarios.js';
import { eventStore, killedAfterAcknowledge, noEventWithoutCommit, sharedDelivery } from './outbox-scenarios.js';

const directory = mkdtempSync(join(tmpdir(), 'scimkit-sql-outbox-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('the mapped SQL store keeps events in an outbox (SQLite)', () => {
  it('declares capabilities.events and an outbox only when asked', async () => {
    const plain = createSqlStore({ ...fromBetterSqlite3(new Database(':memory:')), mapping: ownTablesMapping });
    expect(plain.capabilities?.events).toBeUndefined();
    expect(plain.outbox).toBeUndefined();
    const store = await eventStore(fromBetterSqlite3(new Database(':memory:')));
    expect(store.capabilities?.events).toBe(true);
    expect(store.outbox?.partitions).toBe(16);
  });

  it('two instances over one database, 300 writes spread over both: every event delivered once, in order per resource', async () => {
    await sharedDelivery(fromBetterSqlite3(new Database(':memory:')), 30, 9);
  }, 60_000);

  it('a refused write, a lost compare-and-swap, a uniqueness conflict and a rolled-back transaction write no event', async () => {
    await noEventWithoutCommit(fromBetterSqlite3(new Database(':memory:')));
  });

  it('prunes what every consumer passed after the retention, and drops the oldest past the bound', async () => {
    await retentionAndBound(await eventStore(fromBetterSqlite3(new Database(':memory:'))));
  });

  it('an event acknowledged when the writing process is killed (-9) is delivered from the database file afterwards', async () => {
    const file = join(directory, 'app.db');
    await killedAfterAcknowledge(`sqlite:${file}`, async () => fromBetterSqlite3(new Database(file)));
  }, 60_000);
});
