/**
 * One scimkit of the handle part, in a process of its own: `node bench/handle/child.ts <core entry>`
 * (the built @scimkit/core of this checkout or of the baseline). A memory store of USERS (1,000)
 * users, no authentication. Answers over IPC `{ run: case, count }` with the CPU µs of `count`
 * sequential `server.handle()` calls of that case (process.cpuUsage, user + system), `{ profile:
 * file, case, count }` (the same run under the V8 profiler, written to file), `bodies` (one response
 * of each case, to compare the two builds byte for byte).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { pathToFileURL } from 'node:url';
import { generateUsers } from '../lib/users.js';
import { entraUser } from './entra-user.js';

type Core = typeof import('../../packages/core/src/index.js');
const core = (await import(pathToFileURL(String(process.argv[2])).href)) as Core;
const users = generateUsers(Number(process.env.USERS ?? 1000));
const server = core.createScimServer({
  resourceTypes: [core.userResourceType],
  store: core.createMemoryStore({ initial: { User: users } }),
});
const headers = { 'content-type': 'application/scim+json' };
let created = 0;
const CASES: Record<string, () => Promise<{ status: number; body?: string }>> = {
  post: () => server.handle({ method: 'POST', path: '/Users', headers, body: JSON.stringify(entraUser(created++)) }),
  'userName eq': () => server.handle({ method: 'GET', path: '/Users', headers, query: { filter: `userName eq "user${created++ % users.length}@example.com"` } }),
};

async function run(name: string, count: number): Promise<number> {
  const request = CASES[name];
  if (request === undefined) throw new Error(`unknown case ${name}`);
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const response = await request();
    if (response.status >= 300) throw new Error(`${name} answered ${response.status}: ${response.body ?? ''}`);
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}

async function answer(message: { run?: string; profile?: string; case?: string; count?: number; bodies?: true }): Promise<unknown> {
  if (message.bodies === true) {
    // Fixed inputs: the POST of user 999999 (its id and instants differ run to run and are masked).
    const post = await server.handle({ method: 'POST', path: '/Users', headers, body: JSON.stringify(entraUser(999_999)) });
    const get = await server.handle({ method: 'GET', path: '/Users', headers, query: { filter: 'userName eq "user7@example.com"' } });
    return { post: post.body, get: get.body };
  }
  if (message.run !== undefined) return { us: await run(message.run, message.count ?? 1000) };
  if (message.profile !== undefined) {
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 50 });
    await session.post('Profiler.start');
    const us = await run(String(message.case), message.count ?? 1000);
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    writeFileSync(message.profile, JSON.stringify(profile));
    return { us };
  }
  return undefined;
}
process.on('disconnect', () => process.exit(0));
process.on('message', (message) => void answer(message as Parameters<typeof answer>[0]).then((reply) => process.send?.(reply)));
process.send?.('ready');
