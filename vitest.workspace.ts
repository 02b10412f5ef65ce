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
const postgresServer = process.env['SCIMKIT_PG_URL'] ? [project('postgres-server', ['packages/postgres/test-server/**/*.test.ts'], 60_000)] : [];

/** The Redis-backed suites: only when SCIMKIT_REDIS_URL names a server (.ci/run sets it when 127.0.0.1:6379 answers). */
const redisServer = process.env['SCIMKIT_REDIS_URL'] ? [project('oauth-redis', ['packages/oauth/test-redis/**/*.test.ts'], 30_000)] : [];

/** The real list of test projects: `npm test` runs every one of them. */
export default defineWorkspace([
  project('core', ['packages/core/test/**/*.test.ts']),
  project('adapters', ['packages/node/test/**/*.test.ts', 'packages/express/test/**/*.test.ts', 'packages/koa/test/**/*.test.ts', 'packages/fetch/test/**/*.test.ts', 'packages/fastify/test/**/*.test.ts']),
  project('postgres', ['packages/postgres/test/**/*.test.ts'], 60_000),
  project('oauth', ['packages/oauth/test/**/*.test.ts'], 30_000),
  project('http', ['tests/http/**/*.test.ts'], 30_000),
  project('fuzz', ['tests/fuzz/**/*.test.ts'], 60_000),
  project('examples', ['examples/*/test/**/*.test.ts'], 30_000),
  ...postgresServer,
  ...redisServer,
]);
