import { existsSync } from 'node:fs';
import { defineWorkspace } from 'vitest/config';
import { sourceAliases } from './vitest.shared.js';

const project = (name: string, include: string[], testTimeout = 10_000) => ({
  resolve: { alias: sourceAliases },
  test: { name, include, testTimeout, environment: 'node' as const },
});

/**
 * The suites that need the PostgreSQL server: only when SCIMKIT_PG_URL names one (.ci/run sets it
 * when 127.0.0.1:5432 is reachable), so `npm test` needs nothing installed.
 */
const postgresServer = process.env['SCIMKIT_PG_URL'] ? [project('postgres-server', ['packages/postgres/test-server/**/*.test.ts', 'packages/console/test-server/**/*.test.ts'], 60_000)] : [];

/**
 * The console's browser tests run in Debian's Chromium (`apt-get install chromium`, which .ci/run
 * does): included only when it is installed, and said so when it is not.
 */
const chromium = process.env['SCIMKIT_CHROMIUM'] ?? '/usr/bin/chromium';
const browser = existsSync(chromium) ? [project('browser', ['packages/console/test/**/*.browser-test.ts'], 60_000)] : [];
if (browser.length === 0) console.log(`The browser tests (packages/console/test/browser) are left out: no Chromium at ${chromium} (apt-get install chromium, or SCIMKIT_CHROMIUM=<path>).`);

/** The Redis-backed suites: only when SCIMKIT_REDIS_URL names a server (.ci/run sets it when 127.0.0.1:6379 answers). */
const redisServer = process.env['SCIMKIT_REDIS_URL'] ? [project('oauth-redis', ['packages/oauth/test-redis/**/*.test.ts'], 30_000)] : [];

/** The mapped SQL store on the PostgreSQL and MariaDB servers, when .ci/run found them (SCIMKIT_PG_URL, SCIMKIT_MYSQL_URL). */
const sqlServers = process.env['SCIMKIT_PG_URL'] || process.env['SCIMKIT_MYSQL_URL'] ? [project('sql-server', ['packages/sql/test-server/**/*.test.ts'], 60_000)] : [];

/** The real list of test projects: `npm test` runs every one of them. */
export default defineWorkspace([
  project('core', ['packages/core/test/**/*.test.ts']),
  project('adapters', ['packages/node/test/**/*.test.ts', 'packages/express/test/**/*.test.ts', 'packages/koa/test/**/*.test.ts', 'packages/fetch/test/**/*.test.ts', 'packages/fastify/test/**/*.test.ts']),
  project('postgres', ['packages/postgres/test/**/*.test.ts'], 60_000),
  project('sql', ['packages/sql/test/**/*.test.ts'], 60_000),
  project('oauth', ['packages/oauth/test/**/*.test.ts'], 30_000),
  project('http', ['tests/http/**/*.test.ts'], 30_000),
  project('fuzz', ['tests/fuzz/**/*.test.ts'], 60_000),
  project('examples', ['examples/*/test/**/*.test.ts'], 30_000),
  project('client', ['packages/client/test/**/*.test.ts', 'packages/cli/test/**/*.test.ts'], 30_000),
  project('console', ['packages/console/test/**/*.test.ts'], 30_000),
  ...postgresServer,
  ...sqlServers,
  ...redisServer,
  ...browser,
]);
