import { PGlite } from '@electric-sql/pglite';
import { fromPGlite, migrate, type SqlClient } from '@scimkit/postgres';

let database: Promise<PGlite> | undefined;
let shared: Promise<SqlClient> | undefined;
let schemas = 0;

/** One PGlite per test file (starting one takes seconds). */
export function sharedClient(): Promise<SqlClient> {
  shared ??= sharedPGlite().then((db) => fromPGlite(db));
  return shared;
}

/** The file's PGlite instance itself. */
export function sharedPGlite(): Promise<PGlite> {
  database ??= PGlite.create();
  return database;
}

/** The file's PGlite, with a migrated schema of the caller's own. */
export async function freshSchema(): Promise<{ client: SqlClient; schema: string }> {
  const client = await sharedClient();
  const schema = `t${++schemas}`;
  await migrate(client, { schema });
  return { client, schema };
}
