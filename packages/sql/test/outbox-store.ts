import type { ScimStore } from '@scimkit/core';
import { createSqlOutboxTables, createSqlStore, type SqlConnection } from '../src/index.js';
import { createAppSchema as createOwnTables } from '../../../examples/own-tables/src/app-schema.js';
import { mapping as ownTablesMapping } from '../../../examples/own-tables/src/mapping.js';

/** The own-tables schema, the outbox tables, and a store keeping events over `connection` (no test runner: the kill -9 writer uses it too). */
export async function eventStore(connection: SqlConnection): Promise<ScimStore> {
  await createOwnTables(connection.db, connection.dialect);
  await createSqlOutboxTables(connection.db);
  return createSqlStore({ ...connection, mapping: ownTablesMapping, unmapped: 'ignore', events: true });
}
