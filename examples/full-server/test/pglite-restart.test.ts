import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * Smoke test of `SCIMKIT_STORE=pglite:<directory> npm run start:full`: the full server, as a process,
 * keeps a user and a group (with its membership) across a restart.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'scimkit-full-pglite-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function start(): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/full-server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', SCIMKIT_STORE: `pglite:${directory}`, SCIM_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /\(PGlite store in .*\) listening at (http:\/\/\S+)/.exec(output);
      if (found?.[1] !== undefined) resolve({ child, baseUrl: found[1] });
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}: ${output}`)));
  });
}

/** SIGTERM: the server closes, then its store; resolves with the exit code. */
function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

async function send(url: string, method: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method,
    headers: { accept: 'application/scim+json', ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

describe('full server on SCIMKIT_STORE=pglite:<directory>', () => {
  it('keeps a user and a group across a restart', async () => {
    const first = await start();
    const user = await send(`${first.baseUrl}/Users`, 'POST', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'durable' });
    expect(user.status).toBe(201);
    const group = await send(`${first.baseUrl}/Groups`, 'POST', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Keepers',
      members: [{ value: user.body.id }],
    });
    expect(group.status).toBe(201);
    expect(await stop(first.child)).toBe(0);

    const second = await start();
    try {
      const userAgain = await send(`${second.baseUrl}/Users/${user.body.id}`, 'GET');
      expect(userAgain.status).toBe(200);
      expect(userAgain.body.userName).toBe('durable');
      expect(userAgain.body.meta.version).toBe(user.body.meta.version);
      expect(userAgain.body.groups).toEqual([{ value: group.body.id, $ref: `${second.baseUrl}/Groups/${group.body.id}`, display: 'Keepers', type: 'direct' }]);
      const groupAgain = await send(`${second.baseUrl}/Groups/${group.body.id}`, 'GET');
      expect(groupAgain.status).toBe(200);
      // Everything but meta.location, which names the new port.
      const { location, ...meta } = group.body.meta;
      expect(groupAgain.body).toEqual({ ...group.body, meta: { ...meta, location: location.replace(first.baseUrl, second.baseUrl) } });
    } finally {
      await stop(second.child);
    }
  }, 120_000);
});
