import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createScimServer, userResourceType } from '@scimkit/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStore, databaseSaver, openDatabase, saveDatabase } from '../src/index.js';

const directory = mkdtempSync(join(tmpdir(), 'scimkit-sqlite-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixture = fileURLToPath(new URL('./fixtures/save-forever.ts', import.meta.url));
const once = fileURLToPath(new URL('./fixtures/save-once.ts', import.meta.url));

describe('saveDatabase', () => {
  it('replaces the file with the bytes and leaves no temporary file', async () => {
    const file = join(directory, 'plain.sqlite');
    writeFileSync(file, 'old');
    await saveDatabase(file, new TextEncoder().encode('new contents'));
    expect(readFileSync(file, 'utf8')).toBe('new contents');
    expect(readdirSync(directory).filter((name) => name.includes('plain'))).toEqual(['plain.sqlite']);
  });

  it('leaves the old file untouched, and no temporary file, when the write fails', async () => {
    const file = join(directory, 'occupied');
    mkdirSync(join(file, 'inside'), { recursive: true });
    await expect(saveDatabase(file, new Uint8Array(10))).rejects.toThrow();
    expect(readdirSync(directory).filter((name) => name.includes('occupied'))).toEqual(['occupied']);
  });

  it('keeps the old file whole when the process dies mid-write (the file-size limit kills it at 2 MiB of 4)', async () => {
    const file = join(directory, 'limited.sqlite');
    const original = Buffer.alloc(1000, 1);
    writeFileSync(file, original);
    // RLIMIT_FSIZE: writing past 2 MiB kills the writer with SIGXFSZ (or fails with EFBIG), half-way through.
    const child = spawn('/bin/sh', ['-c', `ulimit -f 4096 && exec "${process.execPath}" --import tsx "${once}" "${file}"`], { cwd: root, stdio: 'ignore' });
    const exit = await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    expect(exit).not.toBe(0);
    const after = readFileSync(file);
    expect(after.length).toBe(original.length);
    expect(after.equals(original)).toBe(true);
  }, 60_000);

  it('survives kill -9 at any moment: the file is always one whole generation, never torn or empty', async () => {
    const file = join(directory, 'crash.sqlite');
    for (let round = 0; round < 4; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', fixture, file], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve, reject) => {
        child.stdout.once('data', () => resolve());
        child.once('exit', (code) => reject(new Error(`the writer exited with ${code}`)));
      });
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 200));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const bytes = readFileSync(file);
      expect(bytes.length).toBe(4 * 1024 * 1024);
      expect(bytes.every((byte) => byte === bytes[0])).toBe(true);
    }
  }, 60_000);
});

describe('databaseSaver', () => {
  it('saves after every change behind the server, one write at a time, and a reopened database has every user', async () => {
    const file = join(directory, 'served.sqlite');
    const db = await openDatabase();
    let snapshots = 0;
    const scim = createScimServer({
      resourceTypes: [userResourceType],
      store: createSqliteStore(db),
      onChange: databaseSaver(file, () => (snapshots++, db.export())),
    });
    const create = (userName: string) =>
      scim.handle({ method: 'POST', path: '/Users', headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName }) });
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => create(`user${i}`)));
    expect(replies.map((reply) => reply.status)).toEqual(Array(20).fill(201));
    // A burst shares saves; each reply waited for a save that includes its user.
    expect(snapshots).toBeLessThan(20);
    const reopened = await openDatabase(readFileSync(file));
    const count = reopened.exec('SELECT COUNT(*) FROM scim_resources')[0]?.values[0]?.[0];
    expect(count).toBe(20);
  });
});
