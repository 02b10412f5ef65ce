/**
 * `npm run bench -- handle`: scimkit's own JavaScript per request, in process: sequential
 * `server.handle()` calls over the memory store, no HTTP, of POST /Users (a Microsoft Entra shaped
 * body) and `GET /Users?filter=userName eq "…"`. Each build runs in a process of its own
 * (bench/handle/child.ts); with BASELINE_REF (default `main`) the baseline's built core runs in the
 * same interleaved rounds. CPU µs per request (user + system), median of ROUNDS (9) rounds of COUNT
 * (3,000) requests after a warm-up. PROFILE=<dir> writes a V8 CPU profile of each case per build.
 * Also checks that both builds answer byte for byte alike (the POST's id and instants masked).
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { baselineTree } from './lib/baseline-tree.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const ref = process.env.BASELINE_REF ?? 'main';
const ROUNDS = Number(process.env.ROUNDS ?? 9);
const COUNT = Number(process.env.COUNT ?? 3000);
const CASES = ['post', 'userName eq'];

execFileSync('npm', ['run', 'build', '-w', '@scimkit/core'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
const baseDir = ref === 'none' ? undefined : baselineTree(root, ref, ['core'], false);

function start(entry: string): Promise<{ child: ChildProcess; ask: (message: object) => Promise<Record<string, unknown>> }> {
  const child = fork(join(root, 'bench/handle/child.ts'), [entry], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  let waiting: ((reply: Record<string, unknown>) => void) | undefined;
  const ready = new Promise<void>((resolve) => child.once('message', () => resolve()));
  child.on('message', (reply) => {
    const w = waiting;
    waiting = undefined;
    w?.(reply as Record<string, unknown>);
  });
  const ask = (message: object): Promise<Record<string, unknown>> =>
    new Promise((resolve) => {
      waiting = resolve;
      child.send(message);
    });
  return ready.then(() => ({ child, ask }));
}

const builds = [{ name: 'this checkout', entry: join(root, 'packages/core/dist/index.js') }];
if (baseDir !== undefined) builds.push({ name: `baseline ${ref}`, entry: join(baseDir, 'packages/core/dist/index.js') });
const running = await Promise.all(builds.map((b) => start(b.entry)));
try {
  const mask = (body: unknown): string => String(body).replace(/"id":"[^"]+"/g, '"id":"…"').replace(/\/Users\/[0-9a-f-]{36}/g, '/Users/…').replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'T').replace(/W\/\\"[^"\\]+\\"/g, 'W/"…"');
  if (running.length === 2) {
    const [a, b] = await Promise.all(running.map((r) => r.ask({ bodies: true })));
    for (const key of ['post', 'get']) {
      if (mask(a?.[key]) !== mask(b?.[key])) throw new Error(`the ${key} responses differ:\n${mask(a?.[key])}\n${mask(b?.[key])}`);
    }
    console.log('responses: byte-identical to the baseline (POST id, instants and version masked)');
  }
  const samples = new Map<string, number[]>();
  const loads: number[] = [];
  for (const name of CASES) for (const r of running) await r.ask({ run: name, count: COUNT });
  for (let round = 0; round < ROUNDS; round++) {
    loads.push(loadavg()[0] ?? 0);
    for (const name of CASES) {
      const order = round % 2 === 0 ? running.map((_, i) => i) : running.map((_, i) => running.length - 1 - i);
      for (const i of order) {
        const reply = await (running[i] as (typeof running)[number]).ask({ run: name, count: COUNT });
        const key = `${name}|${i}`;
        samples.set(key, [...(samples.get(key) ?? []), Number(reply.us)]);
      }
    }
  }
  if (process.env.PROFILE !== undefined) {
    for (const name of CASES) {
      for (const [i, r] of running.entries()) await r.ask({ profile: join(process.env.PROFILE, `${name.replace(/ /g, '-')}-${i === 0 ? 'this' : 'baseline'}.cpuprofile`), case: name, count: COUNT });
    }
  }
  const median = (xs: readonly number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? NaN;
  console.log(`\nCPU µs per server.handle(), median of ${ROUNDS} rounds of ${COUNT} (load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)})`);
  console.log(`| request | ${builds.map((b) => b.name).join(' | ')}${builds.length === 2 ? ' | this ÷ baseline' : ''} |`);
  for (const name of CASES) {
    const m = running.map((_, i) => median(samples.get(`${name}|${i}`) ?? []));
    console.log(`| ${name} | ${m.map((x) => x.toFixed(1)).join(' | ')}${m.length === 2 ? ` | ${((m[0] as number) / (m[1] as number)).toFixed(3)}` : ''} |`);
  }
} finally {
  for (const r of running) r.child.kill();
  if (baseDir !== undefined) rmSync(baseDir, { recursive: true, force: true });
}
