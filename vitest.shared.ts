import { fileURLToPath } from 'node:url';

const at = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/** During development every package is tested against the others' sources, not their builds. */
export const sourceAliases = {
  '@scimkit/core/testing': at('./packages/core/src/testing/index.ts'),
  '@scimkit/core/adapter': at('./packages/core/src/adapter/index.ts'),
  '@scimkit/core/engine': at('./packages/core/src/engine/index.ts'),
  '@scimkit/core/printer': at('./packages/core/src/printer/index.ts'),
  '@scimkit/core': at('./packages/core/src/index.ts'),
  '@scimkit/node': at('./packages/node/src/index.ts'),
  '@scimkit/express': at('./packages/express/src/index.ts'),
  '@scimkit/koa': at('./packages/koa/src/index.ts'),
  '@scimkit/fetch': at('./packages/fetch/src/index.ts'),
  '@scimkit/fastify': at('./packages/fastify/src/index.ts'),
  '@scimkit/postgres': at('./packages/postgres/src/index.ts'),
  '@scimkit/client': at('./packages/client/src/index.ts'),
  '@scimkit/cli': at('./packages/cli/src/index.ts'),
  '@scimkit/sql': at('./packages/sql/src/index.ts'),
  '@scimkit/console': at('./packages/console/src/index.ts'),
  '@scimkit/oauth': at('./packages/oauth/src/index.ts'),
  '@scimkit/events': at('./packages/events/src/index.ts'),
};
