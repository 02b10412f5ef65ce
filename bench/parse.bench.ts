/**
 * Filter parse part (`npm run bench -- parse`): the corpus of realistic filters parsed by scimkit's
 * `parseFilter`, scim2-parse-filter and SCIMMY (`new Filter(text)`), uncached, interleaved. Before
 * timing, each parser is run over the valid corpus (a throw or an error is a failure) and the
 * invalid corpus (a filter it accepts is wrongly accepted).
 *
 * `PARSE_BASELINE=<checkout>` adds that checkout's `parseFilter` (e.g. a worktree of main before a
 * change: `git worktree add /tmp/base main`) as `scimkit (baseline)`, timed in the same run.
 */
import { parse as parseScim2 } from 'scim2-parse-filter';
import SCIMMY from 'scimmy';
import { parseFilter } from '../packages/core/src/engine/index.js';
import { opsPerSecond, round, table, writeResult, type Measure } from './lib/harness.js';
import { INVALID_FILTERS, VALID_FILTERS } from './lib/filters.js';

const baselineDir = process.env['PARSE_BASELINE'];
const baseline = baselineDir === undefined ? undefined : ((await import(`${baselineDir}/packages/core/src/engine/index.ts`)) as { parseFilter: typeof parseFilter }).parseFilter;

const parsers: Record<string, (text: string) => boolean> = {
  scimkit: (text) => parseFilter(text).ok,
  ...(baseline === undefined ? {} : { 'scimkit (baseline)': (text: string) => baseline(text).ok }),
  'scim2-parse-filter': (text) => {
    try {
      parseScim2(text);
      return true;
    } catch {
      return false;
    }
  },
  scimmy: (text) => {
    try {
      new SCIMMY.Types.Filter(text);
      return true;
    } catch {
      return false;
    }
  },
};

const quality: Record<string, { failures: string[]; wronglyAccepted: string[] }> = {};
for (const [name, accepts] of Object.entries(parsers)) {
  quality[name] = { failures: VALID_FILTERS.filter((f) => !accepts(f)), wronglyAccepted: INVALID_FILTERS.filter((f) => accepts(f)) };
}

const corpus = (accepts: (text: string) => boolean) => () => {
  for (const text of VALID_FILTERS) accepts(text);
};
const measured: Record<string, Measure> = opsPerSecond(Object.fromEntries(Object.entries(parsers).map(([n, p]) => [n, corpus(p)])), 300);
const ours = (measured.scimkit as Measure).median;
const rows = Object.entries(measured).map(([name, m]) => ({
  parser: name,
  'filters/s': round(m.median * VALID_FILTERS.length),
  'spread %': round(m.spread * 100),
  'scimkit ÷ this': round(ours / m.median),
  [`failures (of ${VALID_FILTERS.length})`]: quality[name]?.failures.length,
  [`wrongly accepted (of ${INVALID_FILTERS.length})`]: quality[name]?.wronglyAccepted.length,
}));
table(`Filter parsing, ${VALID_FILTERS.length} realistic filters (uncached; median of interleaved runs)`, rows);

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
  filtersPerSecond: Object.fromEntries(Object.entries(measured).map(([n, m]) => [n, { ...m, median: m.median * VALID_FILTERS.length, min: m.min * VALID_FILTERS.length, max: m.max * VALID_FILTERS.length, runs: m.runs.map((r) => r * VALID_FILTERS.length) }])),
  quality,
  refuseDeepMs: deepMs,
  refuseBigMs: bigMs,
});
