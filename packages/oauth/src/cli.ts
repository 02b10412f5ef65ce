#!/usr/bin/env node
import { readFile } from 'node:fs/promises';
import { CLIENT_COMMANDS_USAGE, runClientCommand } from './client-commands.js';
import { createPostgresClientStore } from './postgres-client-store.js';

/**
 * `scimkit-oauth`: manage the OAuth clients of a token endpoint in the PostgreSQL database named by
 * DATABASE_URL (docs/concepts/authentication.md). Opening it through `@scimkit/postgres` also
 * creates or upgrades the SCIM store's schema there.
 */
async function main(argv: readonly string[]): Promise<number> {
  const url = process.env['DATABASE_URL'];
  if (url === undefined || url === '' || argv.length === 0) {
    process.stderr.write(CLIENT_COMMANDS_USAGE);
    return 2;
  }
  const { openPostgresStore } = await import('@scimkit/postgres');
  const opened = await openPostgresStore(url);
  try {
    return await runClientCommand(argv, createPostgresClientStore(opened.client), (text) => process.stdout.write(text), async (file) => JSON.parse(await readFile(file, 'utf8')) as never);
  } finally {
    await opened.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`scimkit-oauth: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
