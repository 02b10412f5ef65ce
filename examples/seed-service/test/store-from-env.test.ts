import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { URN } from '@scimkit/core';
import { afterAll, describe, expect, it } from 'vitest';
import { GROUP_FIXTURES, storeFromEnv } from '../src/index.js';

const directory = mkdtempSync(join(tmpdir(), 'scimkit-pglite-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('SCIMKIT_STORE', () => {
  it('unset or "memory" keeps the service on its in-memory store', async () => {
    for (const value of [undefined, '', 'memory']) {
      const selected = await storeFromEnv(value);
      expect(selected.store).toBeUndefined();
      expect(selected.description).toBe('in-memory store');
    }
  });

  it('refuses a URL it does not know, without echoing a password', async () => {
    await expect(storeFromEnv('mysql://root:secret@db/scim')).rejects.toThrow(/unsupported store URL 'mysql:\/\/root:\*\*\*@db\/scim'/);
  });

  it('pglite:<directory> keeps users and the group fixtures across a restart', async () => {
    const first = await storeFromEnv(`pglite:${directory}`);
    const store = first.store!;
    const user = {
      schemas: [URN.user],
      id: 'durable-1',
      userName: 'durable',
      meta: { resourceType: 'User', created: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z', version: 'W/"1"' },
    };
    expect((await store.create('User', user, { unique: [{ path: 'userName', caseExact: false }] })).ok).toBe(true);
    await first.close();

    const second = await storeFromEnv(`pglite:${directory}`);
    expect(second.description).toBe(`PGlite store in ${directory}`);
    expect(await second.store!.get('User', 'durable-1')).toEqual(user);
    for (const fixture of GROUP_FIXTURES) expect(await second.store!.get('Group', fixture.id)).toEqual(fixture);
    await second.close();
  }, 120_000);
});
