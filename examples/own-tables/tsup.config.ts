import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/main.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
  external: ['@scimkit/core', '@scimkit/express', '@scimkit/sql', 'express', 'kysely', 'better-sqlite3', 'pg', 'mysql2'],
});
