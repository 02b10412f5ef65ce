/**
 * A CPU profile of `handle()` with the log off or on, for `profile-diff.ts`:
 * `node --cpu-prof --cpu-prof-dir=<dir> --cpu-prof-name=<get|patch>-log-<off|on>-<requests>.cpuprofile --import tsx bench/request-log/profile-handle.ts <off|on> <get|patch> [requests]`.
 * Requests as `@scimkit/node` hands them (a headers object each, bytes bodies), 10 per turn of the
 * event loop, after a warm-up; prints the CPU µs per request (process.cpuUsage, the collector's included).
 */
import { bearerToken, createMemoryStore, createScimServer, userResourceType, type ScimRequest } from '@scimkit/core';
import { createMemoryLogStore, createRequestLog, type RequestLog } from '@scimkit/console';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { TOKEN } from './http-servers.js';
import { generateUsers, PATCH_OP } from '../lib/users.js';

const [mode = 'on', kind = 'get', count = '300000'] = process.argv.slice(2);
const users = generateUsers(1000);
// Modes apart from off and on, to place the log's cost: `queue` (a recorder that only queues, dropped
// on the next turn), `built` (records built, a store that keeps nothing).
let queued: unknown[] = [];
const queue = { record: (r: unknown) => { if (queued.push(r) === 1) setImmediate(() => (queued = [])); }, flush: async () => undefined };
const log: Pick<RequestLog, 'record' | 'flush'> | undefined = mode === 'on' ? createRequestLog() : mode === 'built' ? createRequestLog({ store: { ...createMemoryLogStore(), append: async () => undefined } }) : mode === 'queue' ? queue : undefined;
const scim = createScimServer({
  resourceTypes: [userResourceType],
  store: createMemoryStore({ initial: { User: users } }),
  ...bearerToken({ tokens: [{ token: TOKEN, principal: 'bench-client' }] }),
  ...(log === undefined ? {} : { requestLog: log }),
});
const id = (users[0] as { id: string }).id;
const headers = (): Record<string, string> => ({ host: '127.0.0.1', authorization: `Bearer ${TOKEN}`, 'content-type': 'application/scim+json', 'user-agent': 'Microsoft.Identity.Provisioning/1.0', connection: 'keep-alive' });
const request = (n: number): ScimRequest =>
  kind === 'patch'
    ? { method: 'PATCH', path: `/Users/${id}`, headers: headers(), body: Buffer.from(JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: `Name ${n}` }] })) }
    : { method: 'GET', path: `/Users/${id}`, headers: headers() };
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
async function run(n: number): Promise<void> {
  for (let i = 0; i < n; i += 10) {
    for (let j = 0; j < 10; j++) {
      const answer = await scim.handle(request(i + j));
      if (answer.status >= 300) throw new Error(`answered ${answer.status}`);
    }
    await turn();
  }
  await log?.flush();
}
await scim.handle({ method: 'PATCH', path: `/Users/${id}`, headers: headers(), body: JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: 'Written first' }] }) });
await run(50_000);
const total = Number(count);
// PROFILE=<file>: a V8 CPU profile of the measured window (sampled every PROFILE_INTERVAL_US, 50 µs).
const profiler = process.env.PROFILE === undefined ? undefined : new Session();
if (profiler !== undefined) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.setSamplingInterval', { interval: Number(process.env.PROFILE_INTERVAL_US ?? 50) });
  await profiler.post('Profiler.start');
}
const before = process.cpuUsage();
await run(total);
const used = process.cpuUsage(before);
if (profiler !== undefined) {
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(`${process.env.PROFILE}-${total}.cpuprofile`, JSON.stringify(profile));
}
console.log(`${kind} log ${mode}: ${((used.user + used.system) / total).toFixed(3)} µs CPU per request`);
