import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/seed.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
  external: ['@scimkit/core', '@scimkit/fetch', '@scimkit/node', 'hono', '@hono/node-server'],
});
