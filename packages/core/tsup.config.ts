import { packageConfig } from '../../tsup.shared.js';

export default packageConfig({
  entry: { index: 'src/index.ts', 'engine/index': 'src/engine/index.ts', 'adapter/index': 'src/adapter/index.ts', 'testing/index': 'src/testing/index.ts', 'printer/index': 'src/printer/index.ts' },
  // One copy of the core for every entry point in CommonJS too (the testing kit shares the index's modules).
  splitting: true,
  external: ['vitest'],
});
