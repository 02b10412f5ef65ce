#!/usr/bin/env node
import { readFile } from 'node:fs/promises';
import { createClient, revokeClient, rotateClientSecret } from './manage-clients.js';
import { createPostgresClientStore } from './postgres-client-store.js';

const USAGE = `usage: DATABASE_URL=postgres://… (or pglite:./data) scimkit-oauth <command>
  create [--id <client id>] [--tenant <tenant>] [--scope "scim scim:read"] [--jwks <file of public JWKs>] [--no-secret]
  rotate --id <client id> [--drop-previous]
  revoke --id <client id>
  list
The secret of create and rotate is printed once; only its scrypt hash is stored (table scimkit_oauth_clients).
`;

function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

/** `scimkit-oauth`: manage the OAuth clients of a token endpoint in PostgreSQL (docs/concepts/authentication.md). */
async function main(argv: readonly string[]): Promise<number> {
  const [command, ...args] = argv;
  const url = process.env['DATABASE_URL'];
  if (command === undefined || !['create', 'rotate', 'revoke', 'list'].includes(command) || url === undefined || url === '') {
    process.stderr.write(USAGE);
    return 2;
  }
  const { openPostgresStore } = await import('@scimkit/postgres');
  const opened = await openPostgresStore(url);
  try {
    const store = createPostgresClientStore(opened.client);
    const id = option(args, '--id');
    if (command === 'list') {
      for (const client of await store.list()) {
        process.stdout.write(`${client.clientId}\t${client.tenant ?? '-'}\t${client.scopes.join(' ')}\t${client.revoked === true ? 'revoked' : 'active'}\t${client.secretHashes.length} secret(s)\t${client.jwks === undefined ? 0 : client.jwks.keys.length} key(s)\n`);
      }
      return 0;
    }
    if (command === 'create') {
      const jwksFile = option(args, '--jwks');
      const scope = option(args, '--scope');
      const tenant = option(args, '--tenant');
      const created = await createClient(store, {
        ...(id === undefined ? {} : { clientId: id }),
        ...(tenant === undefined ? {} : { tenant }),
        ...(scope === undefined ? {} : { scopes: scope.split(' ').filter(Boolean) }),
        ...(jwksFile === undefined ? {} : { jwks: JSON.parse(await readFile(jwksFile, 'utf8')) }),
        ...(args.includes('--no-secret') ? { secret: false as const } : {}),
      });
      process.stdout.write(`client_id=${created.client.clientId}\n${created.secret === undefined ? '' : `client_secret=${created.secret}\n`}`);
      return 0;
    }
    if (id === undefined) {
      process.stderr.write(USAGE);
      return 2;
    }
    if (command === 'rotate') {
      const rotated = await rotateClientSecret(store, id, { keepPrevious: !args.includes('--drop-previous') });
      process.stdout.write(`client_id=${id}\nclient_secret=${rotated.secret}\n`);
      return 0;
    }
    await revokeClient(store, id);
    process.stdout.write(`client ${id} revoked\n`);
    return 0;
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
