import { PGlite } from '@electric-sql/pglite';
import { fromPGlite, migrate, type SqlClient } from '@scimkit/postgres';

let shared: Promise<SqlClient> | undefined;
let schemas = 0;

/** One PGlite per test file (starting one takes seconds); every caller gets its own migrated schema. */
export async function freshSchema(): Promise<{ client: SqlClient; schema: string }> {
  shared ??= PGlite.create().then((db) => fromPGlite(db));
  const client = await shared;
  const schema = `t${++schemas}`;
  await migrate(client, { schema });
  return { client, schema };
}
