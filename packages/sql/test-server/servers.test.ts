import { describeStoreConformance } from '@scimkit/core/testing';
import { afterAll, beforeAll } from 'vitest';
import { describeOwnTables } from '../../../tests/http/own-tables.suite.js';
import { createSqlStore } from '../src/index.js';
import { createAppSchema as createOwnTables } from '../../../examples/own-tables/src/app-schema.js';
import { mapping as ownTablesMapping } from '../../../examples/own-tables/src/mapping.js';
import { ownTablesProfile } from '../test/profile.js';
import { describeKeyColumn } from '../test/key-column.suite.js';
import { mysqlConnections, postgresConnections, type ServerConnections } from './server-connections.js';

// The configured kit and the own-tables HTTP suite on the PostgreSQL and MariaDB servers, each when
// .ci/run found it answering (SCIMKIT_PG_URL, SCIMKIT_MYSQL_URL).
const servers: [string, string | undefined, (url: string) => Promise<ServerConnections>][] = [
  ['PostgreSQL server', process.env['SCIMKIT_PG_URL'], postgresConnections],
  ['MariaDB/MySQL server', process.env['SCIMKIT_MYSQL_URL'], mysqlConnections],
];

for (const [name, url, open] of servers) {
  if (url === undefined || url === '') continue;
  let connections: ServerConnections | undefined;
  // The kit calls its factory once while the tests are collected, before this hook: keep what that
  // call opened (replacing it left its database behind).
  beforeAll(async () => {
    connections ??= await open(url);
  });
  afterAll(async () => {
    await connections?.close();
  });
  const fresh = async () => {
    connections ??= await open(url);
    return connections.fresh();
  };
  describeStoreConformance(
    `mapped SQL store on the ${name}`,
    async () => {
      const connection = await fresh();
      await createOwnTables(connection.db, connection.dialect);
      return createSqlStore({ ...connection, mapping: ownTablesMapping });
    },
    { profile: ownTablesProfile, timeout: 60_000 },
  );
  describeOwnTables(`the ${name}`, fresh);
  describeKeyColumn(`the ${name}`, fresh);
}
