#!/usr/bin/env node
/**
 * `scimkit check` against the started example servers, run by .ci/run after `npm run build`: each
 * example's built main listens on a free port of 127.0.0.1, the built command checks it (`--json`,
 * `--junit`), and the failing and skipped checks must be the ones recorded in
 * packages/cli/test/support/expected-results.json (docs/check.md, "The example servers").
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const expected = JSON.parse(readFileSync(join(root, 'packages/cli/test/support/expected-results.json'), 'utf8'));
const bin = join(root, 'packages/cli/bin/scimkit.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'scimkit-check-'));
const TOKEN = 'ci-check-token';

// own-tables: `npm run start:own-tables` as it starts by default, SQLite in memory (SCIMKIT_STORE unset).
const servers = [
  { name: 'full-server', main: 'examples/full-server/dist/main.js', env: { SCIM_TOKEN: TOKEN }, token: TOKEN },
  { name: 'seed-service', main: 'examples/seed-service/dist/main.js', env: {} },
  { name: 'own-tables', main: 'examples/own-tables/dist/main.js', env: { SCIM_TOKEN: TOKEN }, unset: ['SCIMKIT_STORE'], token: TOKEN },
];

// With the PostgreSQL server .ci/run found (SCIMKIT_PG_URL), own-tables once more on PostgreSQL, in a
// database of its own (created here, dropped at the end): the results must be the same as on SQLite.
const pgUrl = process.env.SCIMKIT_PG_URL;
const ownDatabase = `scimkit_check_own_tables_${process.pid}`;
async function onServer(statement) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
if (pgUrl) {
  const url = new URL(pgUrl);
  url.pathname = `/${ownDatabase}`;
  await onServer(`CREATE DATABASE ${ownDatabase}`);
  servers.push({ name: 'own-tables on PostgreSQL', results: 'own-tables', main: 'examples/own-tables/dist/main.js', env: { SCIM_TOKEN: TOKEN, SCIMKIT_STORE: url.href }, token: TOKEN });
}

/** Starts a built example on a free port; resolves with its base URL once it says where it listens. */
function start(server) {
  const env = { ...process.env, ...server.env, PORT: '0', HOST: '127.0.0.1' };
  for (const name of server.unset ?? []) delete env[name];
  const child = spawn(process.execPath, [join(root, server.main)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${server.name} did not start within 30 s:\n${out}`)), 30_000);
    const read = (chunk) => {
      out += chunk;
      const url = /listening at (http:\/\/\S+)/.exec(out)?.[1];
      if (url !== undefined) {
        clearTimeout(timer);
        resolve({ child, url });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`${server.name} exited (${code}):\n${out}`)));
  });
}

let failed = false;
try {
  for (const server of servers) {
    if (!existsSync(join(root, server.main))) throw new Error(`${server.main} is not built: run npm run build first`);
    const { child, url } = await start(server);
    try {
      const junit = join(scratch, `${server.name}.xml`);
      const args = [bin, 'check', url, '--json', '--junit', junit, ...(server.token === undefined ? [] : ['--token', server.token])];
      const run = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 120_000 });
      const report = JSON.parse(run.stdout);
      const ids = (status) => report.results.filter((r) => r.status === status).map((r) => r.id);
      const want = expected[server.results ?? server.name];
      const problems = [];
      if (JSON.stringify(ids('fail')) !== JSON.stringify(want.failing)) problems.push(`failing ${JSON.stringify(ids('fail'))}, expected ${JSON.stringify(want.failing)}`);
      if (JSON.stringify(ids('skip')) !== JSON.stringify(want.skipped)) problems.push(`skipped ${JSON.stringify(ids('skip'))}, expected ${JSON.stringify(want.skipped)}`);
      const exit = want.failing.length === 0 ? 0 : 1;
      if (run.status !== exit) problems.push(`exit code ${run.status}, expected ${exit}`);
      if (!readFileSync(junit, 'utf8').startsWith('<?xml')) problems.push('no JUnit report');
      if (problems.length > 0) {
        failed = true;
        console.error(`scimkit check ${server.name}: ${problems.join('; ')}`);
      } else {
        console.log(`scimkit check ${server.name}: ${report.summary.passed} passed, ${report.summary.failed} failed (as recorded), ${report.summary.skipped} skipped`);
      }
    } finally {
      child.kill();
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
  if (pgUrl) await onServer(`DROP DATABASE IF EXISTS ${ownDatabase} WITH (FORCE)`);
}
process.exit(failed ? 1 : 0);
