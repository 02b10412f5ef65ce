import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../../packages/events/test/receiver.js';

/*
 * `SCIM_CONSOLE_PASSWORD=… SCIM_WEBHOOK_URL=… SCIM_WEBHOOK_SECRET=… npm run start:full`: the full
 * server, as a process, shows the webhook deliveries in its console (docs/concepts/console.md).
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const SECRET = `whsec_${Buffer.from('thirty-two bytes of webhook secret').toString('base64')}`;
const PASSWORD = 'a console password';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

let child: ChildProcess | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  await receiver?.close();
});

function start(env: Record<string, string>): Promise<string> {
  const started = spawn(process.execPath, ['--import', 'tsx', 'examples/full-server/src/main.ts'], { cwd: root, env: { ...process.env, HOST: '127.0.0.1', PORT: '0', SCIMKIT_STORE: '', SCIM_TOKEN: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child = started;
  return new Promise((resolve, reject) => {
    let output = '';
    started.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening at (http:\/\/\S+)\/scim\/v2/.exec(output);
      if (found?.[1] !== undefined) resolve(found[1]);
    });
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.once('exit', (code) => reject(new Error(`the server exited with ${code}: ${output}`)));
  });
}

async function logIn(origin: string): Promise<string> {
  const form = await fetch(`${origin}/console/login`);
  const cookie = (form.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const login = await fetch(`${origin}/console/login`, { method: 'POST', redirect: 'manual', headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf, password: PASSWORD }).toString() });
  expect(login.status).toBe(303);
  return (login.headers.get('set-cookie') ?? '').split(';')[0] as string;
}

describe('npm run start:full with the console and a webhook', () => {
  it('shows each delivery with its attempts on the Webhooks page, and the Redeliver button with SCIM_CONSOLE_ACTIONS=1', async () => {
    receiver = await startReceiver((_request, response) => void response.writeHead(204).end());
    const origin = await start({ SCIM_CONSOLE_PASSWORD: PASSWORD, SCIM_WEBHOOK_URL: receiver.url, SCIM_WEBHOOK_SECRET: SECRET, SCIM_CONSOLE_ACTIONS: '1' });
    const created = await fetch(`${origin}/scim/v2/Users`, { method: 'POST', headers: { 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: [USER], userName: 'hooked' }) });
    expect(created.status).toBe(201);
    const end = Date.now() + 10_000;
    while (receiver.requests.length === 0 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(receiver.requests).toHaveLength(1);

    const session = await logIn(origin);
    const list = await fetch(`${origin}/console/webhooks`, { headers: { cookie: session } });
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html).toContain('user.created');
    expect(html).toContain('delivered');
    expect(html).toMatch(/<span class="status s2">204<\/span>/);
    expect(html).toContain('>Redeliver</button>');
    const eventId = String(receiver.requests[0]?.headers['webhook-id']);
    const detail = await fetch(`${origin}/console/webhooks/${eventId}`, { headers: { cookie: session } });
    expect(await detail.text()).toContain(eventId);
  }, 60_000);

  it('is read-only without SCIM_CONSOLE_ACTIONS', async () => {
    receiver = await startReceiver((_request, response) => void response.writeHead(204).end());
    const origin = await start({ SCIM_CONSOLE_PASSWORD: PASSWORD, SCIM_WEBHOOK_URL: receiver.url, SCIM_WEBHOOK_SECRET: SECRET });
    const session = await logIn(origin);
    const html = await (await fetch(`${origin}/console/webhooks`, { headers: { cookie: session } })).text();
    expect(html).toContain('Read-only');
    expect(html).not.toContain('>Redeliver</button>');
  }, 60_000);
});
