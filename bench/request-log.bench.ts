/**
 * Request log part (`npm run bench -- request-log`): the cost of `config.requestLog` on the request
 * path, through `handle()` (no HTTP, so nothing hides it), for GET by id and PATCH: the same server
 * without a log, with the default log (memory ring, personal data kept) and with personal data
 * masked; then the first two over HTTP. Measured in paired rounds: each round runs every contender
 * for one slice in a rotated order and divides each one's throughput by the log-off throughput of
 * the same round; the figure is the median of those ratios. Each batch of BENCH_BATCH (10) requests
 * is followed by one turn of the event loop, for every contender alike, so the log's deferred redaction and
 * storage run inside the timed work: what is measured is the whole cost, not only the enqueueing.
 * Over HTTP each server runs in a process
 * of its own (./request-log/server.ts) and its CPU time is read over IPC around each load run.
 * Bounded: BENCH_ROUNDS (21) × 3 × 2 × BENCH_SLICE_MS (60 ms) in process, RUNS × 2 × 2 ×
 * HTTP_SECONDS over HTTP (twice that with BENCH_BASE=<checkout>, which adds that checkout's two
 * servers to the same HTTP rounds: a change against its baseline in one run). The load average is
 * printed at the start and the end.
 */
import { bearerToken, createMemoryStore, createScimServer, userResourceType, type RecordedRequest, type ScimRequest, type ScimServer } from '@scimkit/core';
import { createMemoryLogStore, createRequestLog, type RequestLog } from '@scimkit/console';
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { load as loadRun, startServer, TOKEN, type ServerProcess } from './request-log/http-servers.js';
import { check, measure, now, round, RUNS, table, writeResult } from './lib/harness.js';
import { generateUsers, PATCH_OP } from './lib/users.js';

const USERS = Number(process.env.USERS ?? 1000);
const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');
const loadAtStart = load();
// Requests as @scimkit/node hands them to handle(): a headers object of their own (Node's parser
// makes one per request) and the body as bytes.
const headers = (): Record<string, string> => ({ authorization: `Bearer ${TOKEN}`, 'user-agent': 'Microsoft.Identity.Provisioning/1.0', 'content-type': 'application/scim+json', host: 'scim.example.com', connection: 'keep-alive' });

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
  'GET /Users/<id>': (c) => ({ method: 'GET', path: `/Users/${c.id}`, headers: headers() }),
  'PATCH replace displayName': (c, n) => ({ method: 'PATCH', path: `/Users/${c.id}`, headers: headers(), body: Buffer.from(JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: `Name ${n}` }] })) }),
};

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
let counter = 0;
// Requests answered per turn of the event loop: about what 10 connections bring a server at once
// (over HTTP the log records about 5 requests per batch).
const BATCH = Number(process.env.BENCH_BATCH ?? 10);

/** Requests per second of one contender for about `ms` of CPU time, in batches of BATCH each followed by an event-loop turn. */
async function rate(c: Contender, request: (c: Contender, n: number) => ScimRequest, ms: number): Promise<number> {
  let calls = 0;
  const started = now();
  let elapsed = 0;
  do {
    for (let i = 0; i < BATCH; i++) {
      const answer = await c.scim.handle(request(c, counter++));
      if (answer.status >= 300) throw new Error(`bench request answered ${answer.status}: ${answer.body}`);
    }
    await turn();
    calls += BATCH;
    elapsed = now() - started;
  } while (elapsed < ms);
  return (calls / elapsed) * 1000;
}

/** The p-th quantile (0..1) of values, by linear interpolation. */
function quantile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * p;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return (sorted[low] as number) + ((sorted[high] as number) - (sorted[low] as number)) * (at - low);
}

// Paired rounds: in each round every contender runs one slice of SLICE_MS (CPU time), in an order
// rotated from round to round, and each log-on contender's throughput is divided by the log-off
// throughput of the same round. The ratio reported is the median of these paired ratios (with the
// interquartile range): a change in the machine's load between rounds cancels out.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 21);
const SLICE_MS = Number(process.env.BENCH_SLICE_MS ?? 60);
const rows: Record<string, unknown>[] = [];
const results: Record<string, unknown> = {};
const names = Object.keys(contenders);
for (const [name, request] of Object.entries(requests)) {
  for (const c of Object.values(contenders)) await rate(c, request, 150); // warm-up
  const samples: Record<string, number[]> = Object.fromEntries(names.map((k) => [k, []]));
  const ratios: Record<string, number[]> = Object.fromEntries(names.map((k) => [k, []]));
  for (let r = 0; r < ROUNDS; r++) {
    const round: Record<string, number> = {};
    for (let i = 0; i < names.length; i++) {
      const k = names[(i + r) % names.length] as string;
      round[k] = await rate(contenders[k] as Contender, request, SLICE_MS);
      (samples[k] as number[]).push(round[k]);
    }
    for (const k of names) (ratios[k] as number[]).push((round[k] as number) / (round['log off'] as number));
  }
  results[name] = Object.fromEntries(names.map((k) => [k, { rate: measure(samples[k] as number[]), ratio: measure(ratios[k] as number[]) }]));
  for (const k of names) {
    const m = measure(samples[k] as number[]);
    const q = ratios[k] as number[];
    rows.push({ request: name, contender: k, 'req/s': Math.round(m.median), 'µs/req': round(1e6 / m.median), 'vs off (paired median)': round(quantile(q, 0.5)), 'p25–p75': k === 'log off' ? '' : `${round(quantile(q, 0.25))}–${round(quantile(q, 0.75))}` });
  }
}

// The log's own work, apart: the same requests' records (captured from the log-off server's
// handle()) recorded and stored through a fresh log, against handle() with the log off, interleaved.
// Steadier than the throughput ratio on a loaded machine (nothing else runs in its slices); the
// implied ratio is handle / (handle + record). It leaves out what only a long run shows: the
// collector's work for records that outlive many collections.
const recordRows: Record<string, unknown>[] = [];
for (const [name, request] of Object.entries(requests)) {
  const captured: RecordedRequest[] = [];
  const capturing = createScimServer({
    resourceTypes: [userResourceType],
    store: createMemoryStore({ initial: { User: generateUsers(USERS) } }),
    ...bearerToken({ tokens: [{ token: TOKEN, principal: 'bench-client' }] }),
    requestLog: { record: (recorded) => void captured.push(recorded) },
  });
  const off = contenders['log off'] as Contender;
  for (let n = 0; n < 1000; n++) await capturing.handle(request(off, n));
  const log = createRequestLog();
  const handleUs: number[] = [];
  const recordUs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let started = now();
    for (let n = 0; n < 1000; n++) await off.scim.handle(request(off, counter++));
    handleUs.push(now() - started);
    started = now();
    for (const recorded of captured) log.record(recorded);
    await log.flush();
    recordUs.push(now() - started);
  }
  await log.close();
  const h = quantile(handleUs, 0.5);
  const rec = quantile(recordUs, 0.5);
  recordRows.push({ request: name, 'handle() µs (log off)': round(h), 'record µs (build + store)': round(rec), 'record µs p25–p75': `${round(quantile(recordUs, 0.25))}–${round(quantile(recordUs, 0.75))}`, 'implied on/off': round(h / (h + rec)) });
  results[`record ${name}`] = { handleUs: measure(handleUs), recordUs: measure(recordUs) };
}

// Over HTTP: each server (log off, log on) in a process of its own behind @scimkit/node
// (./request-log/server.ts), autocannon (10 connections, HTTP_SECONDS each, 1 by default) in a
// third; off and on alternated, RUNS rounds, medians. The server's CPU time per request is read
// over IPC before and after each run (process.cpuUsage: every thread of the server process, the
// collector's included, and nothing of this process or the load generator): steadier than req/s
// when other processes share the cores.
const SECONDS = Number(process.env.HTTP_SECONDS ?? 1);
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
if (PROFILE_DIR !== undefined) mkdirSync(PROFILE_DIR, { recursive: true });
// BENCH_BASE=<checkout>: the same two servers from another checkout (main, say) as well, in the same
// rounds, each pair's ratio its own on / off: a change measured against its baseline in one run.
const BASE = process.env.BENCH_BASE;
interface Served {
  readonly server: ServerProcess;
  /** The pair it belongs to: '' this checkout, 'base' BENCH_BASE's. */
  readonly pair: string;
  readonly key: string;
}
const served: Served[] = [];
for (const pair of BASE === undefined ? [''] : ['', 'base']) {
  for (const mode of ['off', 'on'] as const) served.push({ server: await startServer(mode, pair === 'base' ? BASE : undefined), pair, key: `${pair}${mode}` });
}
const servers = served.map((s) => s.server);
const label = (s: Served): string => `${s.server.mode === 'off' ? 'log off' : 'log on (memory ring)'}${s.pair === 'base' ? ` [${BASE}]` : ''}`;
const httpRows: Record<string, unknown>[] = [];
for (const patch of [false, true]) {
  for (const s of servers) await loadRun(s, 1, patch); // warm-up
  const samples: Record<string, number[]> = Object.fromEntries(served.map((s) => [s.key, []]));
  const cpuSamples: Record<string, number[]> = Object.fromEntries(served.map((s) => [s.key, []]));
  // Per pair: req/s on / off, and CPU per request off / on (the share of the server's capacity the log leaves, 1 = free).
  const ratios: Record<string, number[]> = {};
  const cpuRatios: Record<string, number[]> = {};
  for (let r = 0; r < RUNS; r++) {
    const round: Record<string, { rps: number; cpuUs: number }> = {};
    // Rotated from round to round (and reversed every other round), so no server always follows the same one.
    const order = served.map((_, i) => served[(i + r) % served.length] as Served);
    for (const s of r % 2 === 0 ? order : order.reverse()) {
      const { rps, non2xx, cpuUs } = await loadRun(s.server, SECONDS, patch);
      check(non2xx === 0, `${label(s)}: ${non2xx} answers were not 2xx`);
      (samples[s.key] as number[]).push(rps);
      (cpuSamples[s.key] as number[]).push(cpuUs);
      round[s.key] = { rps, cpuUs };
      // Outside the measured window (the CPU was read when the load generator finished).
      await s.server.flush();
    }
    for (const s of served) {
      if (s.server.mode !== 'on') continue;
      const on = round[s.key] as { rps: number; cpuUs: number };
      const off = round[`${s.pair}off`] as { rps: number; cpuUs: number };
      (ratios[s.pair] ??= []).push(on.rps / off.rps);
      (cpuRatios[s.pair] ??= []).push(off.cpuUs / on.cpuUs);
    }
  }
  // BENCH_PROFILE_DIR: one more run of each server, outside the measure, under the V8 CPU profiler
  // (the file name holds the requests answered; `profile-diff.ts` compares two).
  if (PROFILE_DIR !== undefined) {
    for (const s of served) {
      await s.server.profileStart();
      const { total } = await loadRun(s.server, SECONDS, patch);
      await s.server.profileStop(`${PROFILE_DIR}/${patch ? 'patch' : 'get'}-log-${s.key}-${total}.cpuprofile`);
    }
  }
  for (const s of served) {
    const m = measure(samples[s.key] as number[]);
    const off = s.server.mode === 'off';
    const q = ratios[s.pair] as number[];
    const c = cpuRatios[s.pair] as number[];
    httpRows.push({
      request: patch ? 'PATCH replace displayName' : 'GET /Users/<id>',
      contender: label(s),
      'req/s': Math.round(m.median),
      'vs off (paired median)': off ? 1 : round(quantile(q, 0.5)),
      'p25–p75': off ? '' : `${round(quantile(q, 0.25))}–${round(quantile(q, 0.75))}`,
      'CPU µs/req': round(measure(cpuSamples[s.key] as number[]).median),
      'CPU off/on (paired median)': off ? 1 : round(quantile(c, 0.5)),
      'CPU p25–p75': off ? '' : `${round(quantile(c, 0.25))}–${round(quantile(c, 0.75))}`,
    });
  }
  results[`http ${patch ? 'PATCH' : 'GET'}`] = {
    ...Object.fromEntries(served.map((s) => [`log ${s.key}`, measure(samples[s.key] as number[])])),
    cpuUsPerRequest: Object.fromEntries(served.map((s) => [`log ${s.key}`, measure(cpuSamples[s.key] as number[])])),
    ...Object.fromEntries(Object.entries(ratios).map(([pair, v]) => [`ratio${pair}`, measure(v)])),
    ...Object.fromEntries(Object.entries(cpuRatios).map(([pair, v]) => [`cpuRatio${pair}`, measure(v)])),
  };
}
const logged = await (servers[1] as ServerProcess).flush();
check(logged.flushed.dropped === 0 && logged.flushed.failed === 0, `the HTTP server's log dropped ${logged.flushed.dropped} and failed ${logged.flushed.failed} records`);
check(logged.redacted, "the HTTP server's last record is redacted");
for (const s of servers) await s.close();

for (const c of Object.values(contenders)) {
  if (c.log === undefined) continue;
  await c.log.flush();
  check(c.log.stats.dropped === 0 && c.log.stats.failed === 0, `the log dropped ${c.log.stats.dropped} and failed ${c.log.stats.failed} records`);
  const { records } = await c.log.query({ tenant: '', limit: 1 });
  check(records.length === 0 || records[0]?.requestHeaders['authorization'] === '[redacted]', 'the last record is redacted');
}

table(`Request log on the request path (through handle(), ${ROUNDS} paired rounds of ${SLICE_MS} ms CPU; vs off = median of the rounds' throughput with the log / without)`, rows);
table(`The log's own work per request (median of ${ROUNDS} interleaved rounds of 1,000; µs of CPU time)`, recordRows);
table(`Request log over HTTP (@scimkit/node, each server in a process of its own, autocannon 10 connections, ${SECONDS} s per run, ${RUNS} rotated rounds, medians; CPU: the server process's user + system time per request, all its threads)`, httpRows);
const loadAtEnd = load();
console.log(`Load average (1, 5, 15 min): ${loadAtStart} at the start, ${loadAtEnd} at the end.`);
writeResult('request-log', { users: USERS, rounds: ROUNDS, sliceMs: SLICE_MS, loadAverage: { start: loadAtStart, end: loadAtEnd }, ...(BASE === undefined ? {} : { base: BASE }), results });
