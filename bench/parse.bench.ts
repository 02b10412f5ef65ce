/**
 * Filter parse part (`npm run bench -- parse`): the corpus of realistic filters parsed by scimkit's
 * `parseFilter`, scim2-parse-filter and SCIMMY (`new Filter(text)`), uncached, interleaved. Before
 * timing, each parser is run over the valid corpus (a throw or an error is a failure) and the
 * invalid corpus (a filter it accepts is wrongly accepted).
 *
 * `scimkit` runs the sources through tsx (which wraps every function in a name helper); `scimkit
 * (dist)` runs the built package (the runner builds @scimkit/core first), what an application runs.
 * `PARSE_BASELINE=<checkout>` adds that checkout's `parseFilter` (e.g. a worktree of main before a
 * change: `git worktree add /tmp/base main`) as `scimkit (baseline)`.
 *
 * Each contender is timed in a worker thread of its own (its own V8 isolate), the main thread
 * asking each in turn for one run: two copies of scimkit share the chevrotain engine in one isolate,
 * whose call sites then see two parser classes and slow both down (by ~10 %), which no application
 * with one copy sees. Time is the process's CPU time while only the asked worker runs.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { parse as parseScim2 } from 'scim2-parse-filter';
import SCIMMY from 'scimmy';
import { parseFilter } from '../packages/core/src/engine/index.js';
import { measure, now, round, RUNS, table, writeResult, type Measure } from './lib/harness.js';
import { INVALID_FILTERS, VALID_FILTERS } from './lib/filters.js';

type Parse = (text: string) => boolean;

const baselineDir = process.env['PARSE_BASELINE'];

async function scimkitFrom(module: string): Promise<Parse> {
  const loaded = (await import(module)) as { parseFilter: typeof parseFilter };
  return (text) => loaded.parseFilter(text).ok;
}

const throwsNot =
  (parse: (text: string) => unknown): Parse =>
  (text) => {
    try {
      parse(text);
      return true;
    } catch {
      return false;
    }
  };

/** The contenders, each loaded only where it runs. */
const contenders: Record<string, () => Promise<Parse>> = {
  scimkit: async () => (text) => parseFilter(text).ok,
  'scimkit (dist)': () => scimkitFrom(new URL('../packages/core/dist/engine/index.js', import.meta.url).href),
  ...(baselineDir === undefined ? {} : { 'scimkit (baseline)': () => scimkitFrom(`${baselineDir}/packages/core/src/engine/index.ts`) }),
  'scim2-parse-filter': async () => throwsNot(parseScim2),
  scimmy: async () => throwsNot((text) => new SCIMMY.Types.Filter(text)),
};

const RUN_MS = 300;
const WARM_UP_ROUNDS = 2;

/** Corpus passes per second for about `ms` milliseconds of CPU time. */
function corpusRate(accepts: Parse, ms: number): number {
  let calls = 0;
  const started = now();
  let elapsed = 0;
  do {
    for (let i = 0; i < 100; i++) for (const text of VALID_FILTERS) accepts(text);
    calls += 100;
    elapsed = now() - started;
  } while (elapsed < ms);
  return (calls / elapsed) * 1000;
}

if (!isMainThread) {
  const accepts = await (contenders[workerData as string] as () => Promise<Parse>)();
  parentPort?.on('message', () => parentPort?.postMessage(corpusRate(accepts, RUN_MS)));
  parentPort?.postMessage('ready');
} else {
  const quality: Record<string, { failures: string[]; wronglyAccepted: string[] }> = {};
  for (const [name, load] of Object.entries(contenders)) {
    const accepts = await load();
    quality[name] = { failures: VALID_FILTERS.filter((f) => !accepts(f)), wronglyAccepted: INVALID_FILTERS.filter((f) => accepts(f)) };
  }

  // A worker does not inherit tsx's loader: it registers it, then loads this file.
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); });`;
  const workers = Object.fromEntries(Object.keys(contenders).map((name) => [name, new Worker(boot, { eval: true, workerData: name })]));
  const reply = (worker: Worker): Promise<unknown> => new Promise((resolve, reject) => (worker.once('message', resolve), worker.once('error', reject)));
  await Promise.all(Object.values(workers).map(reply));
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(workers).map((name) => [name, []]));
  // The first rounds warm up (the optimising compiler is still at work in each isolate), not counted.
  for (let r = -WARM_UP_ROUNDS; r < RUNS; r++) {
    for (const [name, worker] of Object.entries(workers)) {
      const answer = reply(worker);
      worker.postMessage('run');
      const rate = ((await answer) as number) * VALID_FILTERS.length;
      if (r >= 0) (samples[name] as number[]).push(rate);
    }
  }
  await Promise.all(Object.values(workers).map((worker) => worker.terminate()));
  const measured: Record<string, Measure> = Object.fromEntries(Object.entries(samples).map(([name, runs]) => [name, measure(runs)]));

  const ours = (measured.scimkit as Measure).median;
  const rows = Object.entries(measured).map(([name, m]) => ({
    parser: name,
    'filters/s': round(m.median),
    'spread %': round(m.spread * 100),
    'scimkit ÷ this': round(ours / m.median),
    [`failures (of ${VALID_FILTERS.length})`]: quality[name]?.failures.length,
    [`wrongly accepted (of ${INVALID_FILTERS.length})`]: quality[name]?.wronglyAccepted.length,
  }));
  table(`Filter parsing, ${VALID_FILTERS.length} realistic filters (uncached; median of interleaved runs, each parser in its own isolate)`, rows);

  // Bounded work on hostile input.
  const started = performance.now();
  parseFilter(`${'('.repeat(20_000)}a pr${')'.repeat(20_000)}`, { maxLength: 1_000_000 });
  const deepMs = performance.now() - started;
  const started2 = performance.now();
  parseFilter(`userName eq "${'x'.repeat(1_000_000)}"`);
  const bigMs = performance.now() - started2;
  console.log('scimkit refuses a 20,000-deep filter in %s ms and a 1 MB filter in %s ms', round(deepMs), round(bigMs));

  writeResult('parse', {
    filters: VALID_FILTERS.length,
    invalid: INVALID_FILTERS.length,
    filtersPerSecond: measured,
    quality,
    refuseDeepMs: deepMs,
    refuseBigMs: bigMs,
  });
}
