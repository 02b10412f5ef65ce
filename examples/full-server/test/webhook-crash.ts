import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import { startReceiver } from '../../../packages/events/test/receiver.js';

/*
 * `SCIM_WEBHOOK_URL=… SCIM_WEBHOOK_SECRET=… SCIMKIT_STORE=pglite:<dir> npm run start:full`: the full
 * server, as a process, killed with SIGKILL right after a write is acknowledged and before the event
 * reached the receiver, delivers that event after a restart, signed.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const SECRET = `whsec_${Buffer.from('thirty-two bytes of webhook secret').toString('base64')}`;
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

export async function startFullServer(store: string, webhookUrl: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/full-server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', SCIMKIT_STORE: store, SCIM_TOKEN: '', SCIM_WEBHOOK_URL: webhookUrl, SCIM_WEBHOOK_SECRET: SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening at (http:\/\/\S+)/.exec(output);
      if (found?.[1] !== undefined) resolve({ child, baseUrl: found[1] });
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}: ${output}`)));
  });
}

/** Kill -9 after a write acknowledged while the receiver refuses; restart with it healthy: the event arrives, signed. */
export async function crashAndRestart(store: string): Promise<void> {
  let healthy = false;
  const received: { type: string; data: { resourceId: string } }[] = [];
  const receiver = await startReceiver(({ headers, body }, response) => {
    if (!healthy) return void response.writeHead(503).end();
    received.push(new Webhook(SECRET).verify(body, headers) as { type: string; data: { resourceId: string } });
    response.writeHead(204).end();
  });
  try {
    const first = await startFullServer(store, receiver.url);
    const created = await fetch(`${first.baseUrl}/Users`, {
      method: 'POST',
      headers: { 'content-type': 'application/scim+json' },
      body: JSON.stringify({ schemas: [USER], userName: 'crash-survivor' }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await exited;
    expect(received).toEqual([]);

    healthy = true;
    const second = await startFullServer(store, receiver.url);
    try {
      // On PGlite the restart takes back the partitions the killed run left leased at once (one
      // process per directory); on a PostgreSQL server the killed instance's leases expire first (10 s).
      const end = Date.now() + 40_000;
      while (received.length === 0 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(received.map((payload) => [payload.type, payload.data.resourceId])).toEqual([['user.created', id]]);
    } finally {
      const stopped = new Promise((resolve) => second.child.once('exit', resolve));
      second.child.kill('SIGTERM');
      await stopped;
    }
  } finally {
    await receiver.close();
  }
}

