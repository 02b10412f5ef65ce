/**
 * HTTP part (`npm run bench -- http`): requests per second of scimkit through each adapter against
 * the limit of the same stack (bare `node:http`, Express, Koa answering a fixed 1 KB user) and
 * against SCIMMY's Express routers. Every server runs in its own process pinned to core 1
 * (`taskset`); the load generator (wrk, one thread, 10 connections; autocannon when wrk is not
 * installed) runs on core 0. Servers are built packages (`npm run build` first), seeded with
 * USERS users (10,000). Runs are interleaved: run r measures every server on every request before
 * run r + 1, so ratios come from the same minutes.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure, round, RUNS, table, writeResult, type Measure } from './lib/harness.js';

const SECONDS = Number(process.env.HTTP_SECONDS ?? 3);
const CONNECTIONS = 10;
const SERVER = fileURLToPath(new URL('./http/server.mjs', import.meta.url));
const hasWrk = spawnSync('wrk', ['--version']).error === undefined;
const hasTaskset = spawnSync('taskset', ['-V']).error === undefined;
const pinned = (core: number, command: string, args: string[]): [string, string[]] => (hasTaskset ? ['taskset', ['-c', String(core), command, ...args]] : [command, args]);

interface Server {
  readonly kind: string;
  readonly port: number;
  firstId: string;
  process?: ChildProcess;
}

const KINDS = ['bare', 'scimkit-node', 'express-fixed', 'scimkit-express', 'koa-fixed', 'scimkit-koa', 'scimmy-express'];
const servers: Server[] = KINDS.map((kind, i) => ({ kind, port: 18_100 + i, firstId: '' }));

function start(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    const [command, args] = pinned(1, process.execPath, [SERVER, server.kind, String(server.port)]);
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    server.process = child;
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /ready ?(\S*)/.exec(chunk.toString());
      if (match) {
        server.firstId = match[1] ?? '';
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`${server.kind} exited with ${code}`)));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'scimkit-bench-'));
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
function lua(name: string, body: string): string {
  const file = join(dir, `${name}.lua`);
  writeFileSync(file, body);
  return file;
}
const HEADERS = `wrk.headers["Content-Type"] = "application/scim+json"\nwrk.headers["Authorization"] = "Bearer bench"\n`;
const postScript = lua(
  'post',
  `${HEADERS}wrk.method = "POST"\nmath.randomseed(os.time())\nlocal prefix = tostring(math.random(1, 1000000000))\nlocal n = 0\nrequest = function()\n  n = n + 1\n  return wrk.format(nil, nil, nil, '{"schemas":["${USER}"],"userName":"bench-' .. prefix .. '-' .. n .. '@example.com","name":{"givenName":"Bench","familyName":"User"},"displayName":"Bench User","active":true,"emails":[{"value":"bench-' .. prefix .. '-' .. n .. '@example.com","type":"work","primary":true}]}')\nend\n`,
);
const patchScript = lua(
  'patch',
  `${HEADERS}wrk.method = "PATCH"\nlocal n = 0\nrequest = function()\n  n = n + 1\n  return wrk.format(nil, nil, nil, '{"schemas":["${PATCH_OP}"],"Operations":[{"op":"replace","path":"displayName","value":"Name ' .. n .. '"}]}')\nend\n`,
);
const getScript = lua('get', HEADERS);

interface RequestKind {
  readonly name: string;
  readonly path: (server: Server) => string;
  readonly script: string;
}
const REQUESTS: RequestKind[] = [
  { name: 'GET /Users/<id>', path: (s) => `/scim/v2/Users/${s.firstId}`, script: getScript },
  { name: 'GET userName eq', path: () => `/scim/v2/Users?filter=${encodeURIComponent('userName eq "user5000@example.com"')}`, script: getScript },
  { name: 'POST /Users', path: () => '/scim/v2/Users', script: postScript },
  { name: 'PATCH replace displayName', path: (s) => `/scim/v2/Users/${s.firstId}`, script: patchScript },
];

/** Requests per second, and the non-2xx count. */
function load(server: Server, request: RequestKind): { rps: number; errors: number } {
  const url = `http://127.0.0.1:${server.port}${request.path(server)}`;
  if (hasWrk) {
    const [command, args] = pinned(0, 'wrk', ['-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '-s', request.script, url]);
    const out = spawnSync(command, args, { encoding: 'utf8' }).stdout;
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
    const errors = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
    return { rps, errors };
  }
  const body = request.script === postScript ? `{"schemas":["${USER}"],"userName":"ac-${Date.now()}@example.com"}` : request.script === patchScript ? `{"schemas":["${PATCH_OP}"],"Operations":[{"op":"replace","path":"displayName","value":"X${Date.now()}"}]}` : undefined;
  const method = request.script === postScript ? 'POST' : request.script === patchScript ? 'PATCH' : 'GET';
  const autocannon = fileURLToPath(new URL('../node_modules/autocannon/autocannon.js', import.meta.url));
  const args = [autocannon, '-j', '-c', String(CONNECTIONS), '-d', String(SECONDS), '-m', method, '-H', 'content-type=application/scim+json', '-H', 'authorization=Bearer bench', ...(body ? ['-b', body] : []), url];
  const [command, pinnedArgs] = pinned(0, process.execPath, args);
  const result = JSON.parse(spawnSync(command, pinnedArgs, { encoding: 'utf8' }).stdout) as { requests: { average: number }; non2xx: number };
  return { rps: result.requests.average, errors: result.non2xx };
}

try {
  console.log('starting %d servers (seeding %s users each)…', servers.length, process.env.USERS ?? '10000');
  const started: Server[] = [];
  for (const server of servers) {
    try {
      await start(server);
      started.push(server);
    } catch (error) {
      console.log(`${server.kind} did not start: ${(error as Error).message}`);
    }
  }
  const samples = new Map<string, number[]>();
  const errors = new Map<string, number>();
  for (let run = 0; run < RUNS; run++) {
    for (const request of REQUESTS) {
      for (const server of started) {
        const key = `${server.kind}\u0000${request.name}`;
        const { rps, errors: bad } = load(server, request);
        samples.set(key, [...(samples.get(key) ?? []), rps]);
        errors.set(key, (errors.get(key) ?? 0) + bad);
      }
    }
    console.log(`run ${run + 1}/${RUNS} done`);
  }
  const m = (kind: string, request: string): Measure | undefined => {
    const values = samples.get(`${kind}\u0000${request}`);
    return values === undefined ? undefined : measure(values);
  };
  const ratio = (a: string, b: string, request: string): number | string => {
    const x = samples.get(`${a}\u0000${request}`);
    const y = samples.get(`${b}\u0000${request}`);
    if (x === undefined || y === undefined) return '–';
    // The median of per-run ratios: each ratio is taken within one run.
    return round(measure(x.map((v, i) => v / (y[i] as number))).median);
  };
  const rows = REQUESTS.map((request) => {
    const row: Record<string, unknown> = { request: request.name };
    for (const server of started) {
      const bad = errors.get(`${server.kind}\u0000${request.name}`) ?? 0;
      row[server.kind] = `${round(m(server.kind, request.name)?.median ?? 0)}${bad > 0 && !server.kind.includes('fixed') && server.kind !== 'bare' ? ` (${bad} non-2xx)` : ''}`;
    }
    return row;
  });
  table(`HTTP requests/s (${hasWrk ? 'wrk' : 'autocannon'}, ${CONNECTIONS} connections, ${SECONDS} s, server pinned to one core; median of ${RUNS} interleaved runs)`, rows);
  const ratios = REQUESTS.map((request) => ({
    request: request.name,
    'node ÷ bare node:http': ratio('scimkit-node', 'bare', request.name),
    'express ÷ Express fixed': ratio('scimkit-express', 'express-fixed', request.name),
    'koa ÷ Koa fixed': ratio('scimkit-koa', 'koa-fixed', request.name),
    'node ÷ scimmy-routers': ratio('scimkit-node', 'scimmy-express', request.name),
  }));
  table('Ratios (median of the per-run ratios)', ratios);
  writeResult('http', {
    tool: hasWrk ? 'wrk' : 'autocannon',
    connections: CONNECTIONS,
    seconds: SECONDS,
    pinned: hasTaskset,
    users: Number(process.env.USERS ?? 10_000),
    requestsPerSecond: Object.fromEntries([...samples].map(([key, values]) => [key.replace('\u0000', ' | '), { ...measure(values), non2xx: errors.get(key) ?? 0 }])),
    ratios,
  });
} finally {
  for (const server of servers) server.process?.kill();
}
