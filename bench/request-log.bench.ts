/**
 * Request log part (`npm run bench -- request-log`): the cost of `config.requestLog` on the request
 * path, through `handle()` (no HTTP, so nothing hides it), for GET by id and PATCH: the same server
 * without a log, with the default log (memory ring, personal data kept) and with personal data
 * masked; then the first two over HTTP. Contenders run interleaved; each batch of 100 requests is followed by one turn of the event
 * loop, for every contender alike, so the log's deferred redaction and storage run inside the timed
 * work: what is measured is the whole cost, not only the enqueueing. Bounded: RUNS × 3 × 2 × ~200 ms
 * in process, RUNS × 2 × 2 × HTTP_SECONDS over HTTP.
 */
import { bearerToken, createMemoryStore, createScimServer, userResourceType, type ScimRequest, type ScimServer } from '@scimkit/core';
import { createMemoryLogStore, createRequestLog, type RequestLog } from '@scimkit/console';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createNodeHandler } from '@scimkit/node';
import { check, measure, now, round, RUNS, table, writeResult, type Measure } from './lib/harness.js';
import { generateUsers, PATCH_OP } from './lib/users.js';

const USERS = Number(process.env.USERS ?? 1000);
const TOKEN = 'bench-token-0123456789abcdef';
const HEADERS = { authorization: `Bearer ${TOKEN}`, 'user-agent': 'Microsoft.Identity.Provisioning/1.0', 'content-type': 'application/scim+json', host: 'scim.example.com' };

interface Contender {
  readonly scim: ScimServer;
  readonly log?: RequestLog;
  readonly id: string;
}

async function contender(log: RequestLog | undefined): Promise<Contender> {
  const users = generateUsers(USERS);
  const scim = createScimServer({
    resourceTypes: [userResourceType],
    store: createMemoryStore({ initial: { User: users } }),
    ...bearerToken({ tokens: [{ token: TOKEN, principal: 'bench-client' }] }),
    ...(log === undefined ? {} : { requestLog: log }),
  });
  return { scim, id: (users[0] as { id: string }).id, ...(log === undefined ? {} : { log }) };
}

const nullStore = { ...createMemoryLogStore(), append: async () => undefined };
const contenders: Record<string, Contender> = {
  'log off': await contender(undefined),
  ...(process.env.BENCH_LOG_PARTS === '1' ? { 'records built, not kept': await contender(createRequestLog({ store: nullStore })) } : {}),
  'log on (memory ring)': await contender(createRequestLog()),
  'log on (personal data masked)': await contender(createRequestLog({ redaction: { personalData: 'mask' } })),
};

const requests: Record<string, (c: Contender, n: number) => ScimRequest> = {
  'GET /Users/<id>': (c) => ({ method: 'GET', path: `/Users/${c.id}`, headers: HEADERS }),
  'PATCH replace displayName': (c, n) => ({ method: 'PATCH', path: `/Users/${c.id}`, headers: HEADERS, body: JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: `Name ${n}` }] }) }),
};

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
let counter = 0;

/** Requests per second of one contender for about `ms` of CPU time, in batches of 100 each followed by an event-loop turn. */
async function rate(c: Contender, request: (c: Contender, n: number) => ScimRequest, ms: number): Promise<number> {
  let calls = 0;
  const started = now();
  let elapsed = 0;
  do {
    for (let i = 0; i < 100; i++) {
      const answer = await c.scim.handle(request(c, counter++));
      if (answer.status >= 300) throw new Error(`bench request answered ${answer.status}: ${answer.body}`);
    }
    await turn();
    calls += 100;
    elapsed = now() - started;
  } while (elapsed < ms);
  return (calls / elapsed) * 1000;
}

const rows: Record<string, unknown>[] = [];
const results: Record<string, Record<string, Measure>> = {};
for (const [name, request] of Object.entries(requests)) {
  for (const c of Object.values(contenders)) await rate(c, request, 100); // warm-up
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (let r = 0; r < RUNS; r++) for (const [k, c] of Object.entries(contenders)) (samples[k] as number[]).push(await rate(c, request, 200));
  const measures = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, measure(v)]));
  results[name] = measures;
  const off = (measures['log off'] as Measure).median;
  for (const [k, m] of Object.entries(measures)) rows.push({ request: name, contender: k, 'req/s': Math.round(m.median), 'µs/req': round(1e6 / m.median), 'vs off': round(m.median / off), spread: round(m.spread) });
}

// Over HTTP: each contender behind @scimkit/node in this process, autocannon (10 connections,
// HTTP_SECONDS each, 1 by default) in a child process; interleaved runs, medians of req/s.
const SECONDS = Number(process.env.HTTP_SECONDS ?? 1);
const servers = await Promise.all(
  (['log off', 'log on (memory ring)'] as const).map(
    (name) =>
      new Promise<{ name: string; port: number; server: Server; c: Contender }>((resolve) => {
        const c = contenders[name] as Contender;
        const server = createServer(createNodeHandler(c.scim, { basePath: '/scim/v2' }));
        server.listen(0, '127.0.0.1', () => resolve({ name, port: (server.address() as AddressInfo).port, server, c }));
      }),
  ),
);
const cannon = fileURLToPath(new URL('../node_modules/autocannon/autocannon.js', import.meta.url));
function load(port: number, id: string, patch: boolean): Promise<{ rps: number; non2xx: number }> {
  const args = [cannon, '-j', '-c', '10', '-d', String(SECONDS), '-H', `authorization=Bearer ${TOKEN}`, '-H', 'content-type=application/scim+json', '-H', 'user-agent=Microsoft.Identity.Provisioning/1.0'];
  if (patch) args.push('-m', 'PATCH', '-I', '-b', JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: 'Name [<id>]' }] }));
  args.push(`http://127.0.0.1:${port}/scim/v2/Users/${id}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', () => {
      try {
        const result = JSON.parse(out) as { requests: { average: number }; non2xx: number };
        resolve({ rps: result.requests.average, non2xx: result.non2xx });
      } catch (error) {
        reject(error);
      }
    });
  });
}
const httpRows: Record<string, unknown>[] = [];
for (const patch of [false, true]) {
  const samples: Record<string, number[]> = Object.fromEntries(servers.map((s) => [s.name, []]));
  for (let r = 0; r < RUNS; r++) {
    for (const s of servers) {
      const { rps, non2xx } = await load(s.port, s.c.id, patch);
      check(non2xx === 0, `${s.name}: ${non2xx} answers were not 2xx`);
      (samples[s.name] as number[]).push(rps);
      await s.c.log?.flush();
    }
  }
  const off = measure(samples['log off'] as number[]).median;
  for (const [name, values] of Object.entries(samples)) {
    const m = measure(values);
    httpRows.push({ request: patch ? 'PATCH replace displayName' : 'GET /Users/<id>', contender: name, 'req/s': Math.round(m.median), 'vs off': round(m.median / off), spread: round(m.spread) });
  }
  results[`http ${patch ? 'PATCH' : 'GET'}`] = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, measure(v)]));
}
for (const s of servers) s.server.close();

for (const c of Object.values(contenders)) {
  if (c.log === undefined) continue;
  await c.log.flush();
  check(c.log.stats.dropped === 0 && c.log.stats.failed === 0, `the log dropped ${c.log.stats.dropped} and failed ${c.log.stats.failed} records`);
  const { records } = await c.log.query({ tenant: '', limit: 1 });
  check(records.length === 0 || records[0]?.requestHeaders['authorization'] === '[redacted]', 'the last record is redacted');
}

table('Request log on the request path (through handle(), medians; vs off = throughput with the log / without)', rows);
table(`Request log over HTTP (@scimkit/node, autocannon 10 connections, ${SECONDS} s per run, medians)`, httpRows);
writeResult('request-log', { users: USERS, results });
