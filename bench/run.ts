/**
 * `npm run bench` runs every part; `npm run bench -- <part> [<part>…]` some of them. Each part is a
 * script run in its own Node process; each prints its tables and writes bench/results/<part>.json.
 * Environment: BENCH_RUNS (runs per measure, default 5), HTTP_SECONDS, USERS.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));
const SERVERS = ['@scimkit/core', '@scimkit/node', '@scimkit/express', '@scimkit/koa'];
/** Each part's script, its Node flags, and the workspaces it needs built first (it runs their dist). */
const PARTS: Record<string, { file: string; flags?: string[]; build?: readonly string[] }> = {
  parse: { file: 'parse.bench.ts', build: ['@scimkit/core'] },
  filter: { file: 'filter.bench.ts' },
  patch: { file: 'patch.bench.ts' },
  http: { file: 'http.bench.ts', build: SERVERS },
  memory: { file: 'memory.bench.ts', build: SERVERS },
  scaling: { file: 'scaling.bench.ts', flags: ['--expose-gc', '--max-old-space-size=6144'] },
  'request-log': { file: 'request-log.bench.ts' },
  // scimkit's JavaScript per request in process (server.handle(), memory store) against BASELINE_REF (main).
  handle: { file: 'handle.bench.ts' },
  oauth: { file: 'oauth.bench.ts' },
  // Needs the PostgreSQL server (SCIMKIT_PG_URL); about four minutes at the defaults.
  'postgres-limit': { file: 'postgres-limit.bench.ts' },
  events: { file: 'events.bench.ts' },
};

const asked = process.argv.slice(2);
const unknown = asked.filter((p) => !(p in PARTS));
if (unknown.length > 0) {
  console.error(`unknown part(s): ${unknown.join(', ')}; parts: ${Object.keys(PARTS).join(', ')}`);
  process.exit(2);
}
const parts = asked.length > 0 ? asked : Object.keys(PARTS);
let failed = 0;
for (const name of parts) {
  const part = PARTS[name] as (typeof PARTS)[string];
  console.log(`\n=== ${name} ===`);
  if (part.build !== undefined) {
    // The HTTP servers (and the parse part's `scimkit (dist)`) run the built packages, as an application does.
    const built = spawnSync('npm', ['run', 'build', ...part.build.flatMap((workspace) => ['-w', workspace])], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (built.status !== 0) {
      console.error('build failed');
      failed++;
      continue;
    }
  }
  const run = spawnSync(process.execPath, [...(part.flags ?? []), '--import', 'tsx', here(part.file)], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
