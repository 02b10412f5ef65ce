import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'engine/index': 'src/engine/index.ts', 'adapter/index': 'src/adapter/index.ts', 'testing/index': 'src/testing/index.ts', 'printer/index': 'src/printer/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  // One copy of the core for every entry point in CommonJS too (the testing kit shares the index's modules).
  splitting: true,
  target: 'node20',
  external: ['vitest'],
});
