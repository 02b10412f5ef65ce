import { createScimServer, eventPartition, userResourceType, type ScimEvent } from '@scimkit/core';
import { createPostgresStore, migrate } from '@scimkit/postgres';
import { describe, expect, it } from 'vitest';
import { bootstrapStatements, MIGRATIONS } from '../src/migrations.js';
import { storeTables } from '../src/sql-names.js';
import { sharedClient } from './fresh-schema.js';

const SCHEMA = 'outbox_v4';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

const event = (n: number, resourceId: string): ScimEvent => ({
  id: `old-${n}`,
  type: 'user.updated',
  time: '2026-01-01T00:00:00.000Z',
  resourceType: 'User',
  resourceId,
  operation: 'patch',
  requestId: `r${n}`,
});

describe('migration 5: events numbered by their readers', () => {
  it('keeps the undelivered events of a version 4 outbox, in order, before the events written after it', async () => {
    const client = await sharedClient();
    const t = storeTables(SCHEMA);
    // Version 4, with event rows as its writers inserted them (seq from the identity, in commit order).
    await client.transaction(async (tx) => {
      for (const statement of bootstrapStatements(t)) await tx.query(statement);
      for (const migration of MIGRATIONS.filter((m) => m.version <= 4)) {
        for (const statement of migration.statements(t)) await tx.query(statement);
        await tx.query(`INSERT INTO ${t.migrations} (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
      }
    });
    const old = [event(1, 'u1'), event(2, 'u1'), event(3, 'u1')];
    for (const e of old) {
      await client.query(`INSERT INTO "${SCHEMA}".scim_events (partition, id, tenant, event) VALUES ($1, $2, '', $3::jsonb)`, [eventPartition(undefined, 'User', 'u1'), e.id, JSON.stringify(e)]);
    }
    const migrated = await migrate(client, { schema: SCHEMA });
    expect(migrated.applied).toEqual(MIGRATIONS.filter((m) => m.version > 4).map((m) => m.version));

    const store = createPostgresStore({ client, schema: SCHEMA });
    const server = createScimServer({ resourceTypes: [userResourceType], store, events: {}, logger: { log: () => undefined } });
    const created = await server.handle({ method: 'POST', path: '/Users', headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: [USER], id: 'ignored', userName: 'after' }) });
    expect(created.status).toBe(201);
    const newId = JSON.parse(created.body ?? '{}').id as string;
    const outbox = store.outbox!;
    const leases = await outbox.lease('migrated', 'me', { max: outbox.partitions, leaseMs: 10_000 });
    const records = (await Promise.all(leases.map((lease) => outbox.read(lease, 100)))).flat();
    const ofOld = records.filter((r) => r.event.resourceId === 'u1');
    expect(ofOld.map((r) => r.event.id)).toEqual(['old-1', 'old-2', 'old-3']);
    const fresh = records.find((r) => r.event.resourceId === newId);
    expect(fresh?.event.type).toBe('user.created');
    // Numbered after every row the old writers numbered.
    expect(BigInt(fresh!.position)).toBeGreaterThan(BigInt(ofOld[2]!.position));
    const lease = leases.find((l) => l.partition === ofOld[0]!.partition)!;
    expect(await outbox.advance(lease, ofOld[2]!.position, 10_000)).toBe(true);
    expect(await outbox.read({ ...lease, position: ofOld[2]!.position }, 100)).toEqual(records.filter((r) => r.partition === lease.partition && r.event.resourceId !== 'u1'));
  });
});
