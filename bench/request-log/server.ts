/**
 * One server of the request-log part's HTTP measure, in a process of its own, forked by
 * `http-servers.ts`: `node --import tsx bench/request-log/server.ts <off|on|queue|built>`. @scimkit/node,
 * bearer token, memory store of USERS (1,000) users, with or without `createRequestLog()`, the
 * measured user patched once before (reads follow writes in a provisioning). It sends
 * `ready <port> <user id>` once listening, and answers over IPC: `cpu` (its process.cpuUsage()),
 * `flush` (once the log stored what it queued: its counters, whether the last record is redacted),
 * `profile-start` and `{ profileTo }` (a V8 CPU profile of the window between, the same profiler
 * as `node --cpu-prof`, written to that file), `exit`.
 */
import { bearerToken, createMemoryStore, createScimServer, userResourceType } from '@scimkit/core';
import { createMemoryLogStore, createRequestLog } from '@scimkit/console';
import { createNodeHandler } from '@scimkit/node';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { generateUsers, PATCH_OP } from '../lib/users.js';
import { TOKEN } from './http-servers.js';

// Besides off and on, to place the log's cost: `queue` (a recorder that only queues, dropped on the
// next turn), `built` (records built, a store that keeps nothing).
const mode = ['on', 'queue', 'built'].includes(process.argv[2] ?? '') ? (process.argv[2] as 'on' | 'queue' | 'built') : 'off';
const users = generateUsers(Number(process.env.USERS ?? 1000));
let queued: unknown[] = [];
const queue = { record: (recorded: unknown) => void (queued.push(recorded) === 1 && setImmediate(() => (queued = []))) };
const log = mode === 'on' ? createRequestLog() : mode === 'built' ? createRequestLog({ store: { ...createMemoryLogStore(), append: async () => undefined } }) : undefined;
const scim = createScimServer({
  resourceTypes: [userResourceType],
  store: createMemoryStore({ initial: { User: users } }),
  ...bearerToken({ tokens: [{ token: TOKEN, principal: 'bench-client' }] }),
  ...(log === undefined ? (mode === 'queue' ? { requestLog: queue } : {}) : { requestLog: log }),
});
const server = createServer(createNodeHandler(scim, { basePath: '/scim/v2' }));
const id = (users[0] as { id: string }).id;
// As in a provisioning, the user was written before it is read: the log knows its userName, which
// the record of each GET by id then carries (a read's record takes it from the log, not the body).
const primed = await scim.handle({ method: 'PATCH', path: `/Users/${id}`, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/scim+json' }, body: JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: 'Written first' }] }) });
if (primed.status !== 200) throw new Error(`the priming PATCH answered ${primed.status}`);
server.listen(0, '127.0.0.1', () => process.send?.(`ready ${(server.address() as AddressInfo).port} ${id}`));

let profiler: Session | undefined;
async function answer(message: unknown): Promise<unknown> {
  if (message === 'cpu') return { cpu: process.cpuUsage() };
  if (message === 'flush') {
    await log?.flush();
    const { records } = (await log?.query({ tenant: '', limit: 1 })) ?? { records: [] };
    return { flushed: log?.stats ?? { recorded: 0, dropped: 0, failed: 0 }, redacted: records.length === 0 || records[0]?.requestHeaders['authorization'] === '[redacted]' };
  }
  if (message === 'profile-start') {
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.setSamplingInterval', { interval: Number(process.env.PROFILE_INTERVAL_US ?? 100) });
    await profiler.post('Profiler.start');
    return 'profiling';
  }
  if (typeof message === 'object' && message !== null && 'profileTo' in message && profiler !== undefined) {
    const { profile } = await profiler.post('Profiler.stop');
    profiler.disconnect();
    writeFileSync(String((message as { profileTo: unknown }).profileTo), JSON.stringify(profile));
    return 'profiled';
  }
  if (message === 'exit') {
    server.close();
    process.exit(0);
  }
  return undefined;
}
// The bench process went away (finished or failed): so does this server.
process.on('disconnect', () => process.exit(0));
process.on('message', (message: unknown) => void answer(message).then((reply) => reply !== undefined && process.send?.(reply as string)));
