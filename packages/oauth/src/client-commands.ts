import type { JWK } from 'jose';
import { createClient, revokeClient, rotateClientSecret } from './manage-clients.js';
import type { ClientStore } from './oauth-client.js';

export const CLIENT_COMMANDS_USAGE = `usage: DATABASE_URL=postgres://… (or pglite:./data) scimkit-oauth <command>
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

/**
 * One `scimkit-oauth` command over `store`: what it prints goes to `write`; the exit code is
 * returned (2: usage). `readJwks` reads the file `--jwks` names. Errors (a taken id, an unknown
 * client, invalid keys) reject with their message.
 */
export async function runClientCommand(argv: readonly string[], store: ClientStore, write: (text: string) => void, readJwks: (file: string) => Promise<{ keys: JWK[] }>): Promise<number> {
  const [command, ...args] = argv;
  const id = option(args, '--id');
  switch (command) {
    case 'list':
      for (const client of await store.list()) {
        write(`${client.clientId}\t${client.tenant ?? '-'}\t${client.scopes.join(' ')}\t${client.revoked === true ? 'revoked' : 'active'}\t${client.secretHashes.length} secret(s)\t${client.jwks === undefined ? 0 : client.jwks.keys.length} key(s)\n`);
      }
      return 0;
    case 'create': {
      const jwksFile = option(args, '--jwks');
      const scope = option(args, '--scope');
      const tenant = option(args, '--tenant');
      const created = await createClient(store, {
        ...(id === undefined ? {} : { clientId: id }),
        ...(tenant === undefined ? {} : { tenant }),
        ...(scope === undefined ? {} : { scopes: scope.split(' ').filter(Boolean) }),
        ...(jwksFile === undefined ? {} : { jwks: await readJwks(jwksFile) }),
        ...(args.includes('--no-secret') ? { secret: false as const } : {}),
      });
      write(`client_id=${created.client.clientId}\n${created.secret === undefined ? '' : `client_secret=${created.secret}\n`}`);
      return 0;
    }
    case 'rotate':
    case 'revoke':
      if (id === undefined) break;
      if (command === 'rotate') {
        const rotated = await rotateClientSecret(store, id, { keepPrevious: !args.includes('--drop-previous') });
        write(`client_id=${id}\nclient_secret=${rotated.secret}\n`);
      } else {
        await revokeClient(store, id);
        write(`client ${id} revoked\n`);
      }
      return 0;
  }
  write(CLIENT_COMMANDS_USAGE);
  return 2;
}
