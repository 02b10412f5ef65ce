import { randomUUID } from 'node:crypto';
import { createPool } from 'mysql2';
import pg from 'pg';
import { afterAll, describe, it } from 'vitest';
import { fromMysqlPool, fromPgPool, type SqlConnection } from '../src/index.js';
import { retentionAndBound } from '../../events/test/outbox-scenarios.js';
import { eventStore, killedAfterAcknowledge, noEventWithoutCommit, sharedDelivery } from '../test/outbox-scenarios.js';
import { mysqlConnections, postgresConnections, type ServerConnections } from './server-connections.js';

/** A database of its own for the kill -9 writer, which connects by URL: created empty, dropped after. */
async function freshDatabase(dialect: 'postgres' | 'mysql', admin: string): Promise<{ url: string; connect: () => SqlConnection; drop: () => Promise<void> }> {
  const name = `scimkit_sql_outbox_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const url = new URL(admin);
  url.pathname = `/${name}`;
  if (dialect === 'postgres') {
    const run = async (text: string) => {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(text).finally(() => client.end());
    };
    await run(`CREATE DATABASE ${name}`);
    return { url: url.toString(), connect: () => fromPgPool(new pg.Pool({ connectionString: url.toString(), max: 2 })), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  }
  const root = createPool({ uri: admin, connectionLimit: 1 });
  const run = (text: string) => new Promise<void>((resolve, reject) => root.query(text, (error) => (error ? reject(error) : resolve())));
  await run(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`);
  return {
    url: url.toString(),
    connect: () => fromMysqlPool(createPool({ uri: url.toString(), connectionLimit: 2, timezone: 'Z' })),
    drop: async () => {
      await run(`DROP DATABASE IF EXISTS ${name}`);
      await new Promise<void>((resolve) => root.end(() => resolve()));
    },
  };
}

// The outbox of the mapped SQL store on the PostgreSQL and MariaDB servers .ci/run found.
const servers: ['postgres' | 'mysql', string, string | undefined, (url: string) => Promise<ServerConnections>][] = [
  ['postgres', 'PostgreSQL server', process.env['SCIMKIT_PG_URL'], postgresConnections],
  ['mysql', 'MariaDB/MySQL server', process.env['SCIMKIT_MYSQL_URL'], mysqlConnections],
];

for (const [dialect, name, admin, open] of servers) {
  if (admin === undefined || admin === '') continue;
  describe(`the mapped SQL store's outbox on the ${name}`, () => {
    let connections: ServerConnections | undefined;
    const fresh = async () => (connections ??= await open(admin)).fresh();
    afterAll(async () => {
      await connections?.close();
    });

    it('two instances over one database, 500 writes spread over both: every event delivered once, in order per resource', async () => {
      await sharedDelivery(await fresh(), 50, 9);
    }, 60_000);

    it('a refused write, a lost compare-and-swap, a uniqueness conflict and a rolled-back transaction write no event', async () => {
      await noEventWithoutCommit(await fresh());
    });

    it('prunes what every consumer passed after the retention, and drops the oldest past the bound', async () => {
      await retentionAndBound(await eventStore(await fresh()));
    });

    it('an event acknowledged when the writing process is killed (-9) is delivered afterwards', async () => {
      const database = await freshDatabase(dialect, admin);
      try {
        await killedAfterAcknowledge(database.url, async () => database.connect());
      } finally {
        await database.drop();
      }
    }, 60_000);
  });
}
