/**
 * Memory part (`npm run bench -- memory`): runs `memory-store.bench.ts` (heap of the memory store
 * against a plain Map of the same users, target ≤ 1.3×; read speeds), prints its table, and writes
 * its rows to bench/results/memory.json.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { writeResult } from './lib/harness.js';

const script = fileURLToPath(new URL('./memory-store.bench.ts', import.meta.url));
const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
process.stdout.write(run.stdout);
const rows = Object.fromEntries(
  run.stdout
    .split('\n')
    .map((line) => /^\| ([^|]+) \| ([^|]+) \|$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && m[1] !== 'measure' && !m[1]?.startsWith('---'))
    .map((m) => [(m[1] as string).trim(), (m[2] as string).trim()]),
);
writeResult('memory', { rows, exitCode: run.status });
process.exitCode = run.status ?? 1;
