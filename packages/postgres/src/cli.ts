#!/usr/bin/env node
import { openPostgresStore } from './open-postgres-store.js';

/**
 * `npx scimkit-postgres migrate [--schema name]`: creates or upgrades the schema in the database
 * named by DATABASE_URL (`postgres://…`, or `pglite:./data`).
 */
async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const url = process.env['DATABASE_URL'];
  if (command !== 'migrate' || url === undefined || url === '') {
    process.stderr.write('usage: DATABASE_URL=postgres://… scimkit-postgres migrate [--schema <name>]\n');
    return 2;
  }
  const at = rest.indexOf('--schema');
  const schema = at >= 0 ? rest[at + 1] : undefined;
  const opened = await openPostgresStore(url, schema === undefined ? {} : { schema });
  await opened.close();
  process.stdout.write(`scimkit-postgres: schema ${schema ?? 'public'} is current\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`scimkit-postgres: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
