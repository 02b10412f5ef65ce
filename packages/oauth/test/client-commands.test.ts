import { exportJWK, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { createMemoryClientStore, verifySecret } from '../src/index.js';
import { runClientCommand } from '../src/client-commands.js';

describe('scimkit-oauth commands', () => {
  it('create prints the secret once and stores only its hash; rotate, revoke and list', async () => {
    const store = createMemoryClientStore();
    let out = '';
    const write = (text: string) => void (out += text);
    const publicJwk = await exportJWK((await generateKeyPair('ES256')).publicKey);
    const files: Record<string, { keys: never[] }> = { 'keys.json': { keys: [publicJwk as never] } };
    const readJwks = async (file: string) => files[file] as { keys: never[] };
    expect(await runClientCommand(['create', '--id', 'entra', '--tenant', 'acme', '--scope', 'scim scim:read'], store, write, readJwks)).toBe(0);
    const secret = /client_secret=(\S+)/.exec(out)?.[1] as string;
    expect(out).toContain('client_id=entra');
    expect(await verifySecret(secret, (await store.get('entra'))?.secretHashes[0] as string)).toBe(true);
    expect(JSON.stringify(await store.list())).not.toContain(secret);
    out = '';
    expect(await runClientCommand(['create', '--id', 'jwt', '--jwks', 'keys.json', '--no-secret'], store, write, readJwks)).toBe(0);
    expect(out).toBe('client_id=jwt\n');
    out = '';
    expect(await runClientCommand(['rotate', '--id', 'entra'], store, write, readJwks)).toBe(0);
    expect(/client_secret=(\S+)/.exec(out)?.[1]).not.toBe(secret);
    expect(await runClientCommand(['revoke', '--id', 'entra'], store, write, readJwks)).toBe(0);
    out = '';
    expect(await runClientCommand(['list'], store, write, readJwks)).toBe(0);
    expect(out).toBe('entra\tacme\tscim scim:read\trevoked\t2 secret(s)\t0 key(s)\njwt\t-\tscim scim:read\tactive\t0 secret(s)\t1 key(s)\n');
    out = '';
    expect(await runClientCommand(['rotate'], store, write, readJwks)).toBe(2);
    expect(await runClientCommand(['frobnicate'], store, write, readJwks)).toBe(2);
    expect(out).toContain('usage:');
    await expect(runClientCommand(['revoke', '--id', 'ghost'], store, write, readJwks)).rejects.toThrow(/no client/);
  });
});
