import { defineWorkspace } from 'vitest/config';
import { sourceAliases } from './vitest.shared.js';

const project = (name: string, include: string[], testTimeout = 10_000) => ({
  resolve: { alias: sourceAliases },
  test: { name, include, testTimeout, environment: 'node' as const },
});

/** The real list of test projects: `npm test` runs every one of them. */
export default defineWorkspace([
  project('core', ['packages/core/test/**/*.test.ts']),
  project('adapters', ['packages/node/test/**/*.test.ts', 'packages/express/test/**/*.test.ts', 'packages/koa/test/**/*.test.ts']),
  project('postgres', ['packages/postgres/test/**/*.test.ts'], 60_000),
  project('http', ['tests/http/**/*.test.ts'], 30_000),
  project('examples', ['examples/*/test/**/*.test.ts'], 30_000),
]);
