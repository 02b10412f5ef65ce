import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/main.ts', 'src/seed.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
  external: ['@scimkit/core', '@scimkit/express', 'express', 'standardwebhooks'],
});
