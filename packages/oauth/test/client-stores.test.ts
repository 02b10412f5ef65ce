import { PGlite } from '@electric-sql/pglite';
import { fromPGlite } from '@scimkit/postgres';
import { describe, expect, it } from 'vitest';
import { createClient, createMemoryClientStore, createPostgresClientStore, hashSecret, revokeClient, rotateClientSecret, verifySecret, type ClientStore } from '../src/index.js';
import { TEST_COST } from './oauth-fixture.js';

async function exercise(store: ClientStore): Promise<void> {
  const created = await createClient(store, { clientId: 'entra', tenant: 'acme', cost: TEST_COST });
  expect(created.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const stored = await store.get('entra');
  expect(stored).toMatchObject({ clientId: 'entra', tenant: 'acme', scopes: ['scim', 'scim:read'] });
  // Only the scrypt hash is kept.
  expect(JSON.stringify(stored)).not.toContain(created.secret);
  expect(stored?.secretHashes[0]).toMatch(/^scrypt\$N=1024,r=8,p=1\$/);
  expect(await verifySecret(created.secret as string, stored?.secretHashes[0] as string)).toBe(true);
  await expect(createClient(store, { clientId: 'entra', cost: TEST_COST })).rejects.toThrow(TypeError);
  const rotated = await rotateClientSecret(store, 'entra', { cost: TEST_COST });
  expect((await store.get('entra'))?.secretHashes).toHaveLength(2);
  expect(await verifySecret(rotated.secret as string, (await store.get('entra'))?.secretHashes[0] as string)).toBe(true);
  await revokeClient(store, 'entra');
  expect((await store.get('entra'))?.revoked).toBe(true);
  await createClient(store, { clientId: 'okta', cost: TEST_COST });
  expect((await store.list()).map((client) => client.clientId)).toEqual(['entra', 'okta']);
  expect(await store.get('nobody')).toBeUndefined();
}

describe('client stores', () => {
  it('memory: create, rotate, revoke, list', async () => {
    await exercise(createMemoryClientStore());
  });

  it('PostgreSQL (PGlite): its own table created on first use, same behaviour', async () => {
    const db = new PGlite();
    try {
      const sql = fromPGlite(db);
      const store = createPostgresClientStore(sql);
      await exercise(store);
      const { rows } = await sql.query<{ client_id: string; revoked: boolean }>('SELECT client_id, revoked FROM scimkit_oauth_clients ORDER BY client_id');
      expect(rows).toEqual([{ client_id: 'entra', revoked: true }, { client_id: 'okta', revoked: false }]);
      // A second store over the same table sees the same clients (IF NOT EXISTS: no error).
      expect((await createPostgresClientStore(sql).get('okta'))?.clientId).toBe('okta');
      expect(() => createPostgresClientStore(sql, { table: 'x; DROP TABLE y' })).toThrow(TypeError);
    } finally {
      await db.close();
    }
  });

  it('refuses invalid clients: bad id, private or symmetric keys, no secret and no keys', async () => {
    const store = createMemoryClientStore();
    await expect(createClient(store, { clientId: 'a b' })).rejects.toThrow(TypeError);
    await expect(createClient(store, { clientId: 'k', secret: false, jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] } })).rejects.toThrow(/public/);
    await expect(createClient(store, { clientId: 'k', secret: false, jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'a', y: 'b', d: 'c' }] } })).rejects.toThrow(/private/);
    await expect(createClient(store, { clientId: 'k', secret: false })).rejects.toThrow(/jwks/);
    await expect(createClient(store, { clientId: 'k', scopes: ['ok', 'bad"'] })).rejects.toThrow(/scope/);
  });

  it('hashSecret / verifySecret: salted, constant-time, malformed or absurd hashes are false', async () => {
    const [one, two] = [await hashSecret('s3cret', TEST_COST), await hashSecret('s3cret', TEST_COST)];
    expect(one).not.toBe(two);
    expect(await verifySecret('s3cret', one)).toBe(true);
    expect(await verifySecret('s3cres', one)).toBe(false);
    for (const bad of ['', 'plain', one.replace('N=1024', 'N=1000'), one.replace('N=1024', 'N=67108864'), `${one}x`]) expect(await verifySecret('s3cret', bad)).toBe(false);
  });
});
