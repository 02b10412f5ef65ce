import { defineConfig, type Options } from 'tsup';

/**
 * How every published package builds: ESM and CommonJS for Node 20, with type
 * declarations and source maps, from `src/index.ts`. A package passes only what differs: more entry
 * points, which entry has types, externals, or a neutral platform.
 */
export function packageConfig(own: Options = {}): ReturnType<typeof defineConfig> {
  return defineConfig({ entry: ['src/index.ts'], format: ['esm', 'cjs'], dts: true, sourcemap: true, clean: true, target: 'node20', ...own });
}

/**
 * How an example builds: ESM for Node 20, its entry points as given, the scimkit packages it uses
 * left as imports (they come from the workspace, built by `npm run build`).
 */
export function exampleConfig(entry: string[], external: string[], own: Options = {}): ReturnType<typeof defineConfig> {
  return defineConfig({ entry, format: ['esm'], sourcemap: true, clean: true, target: 'node20', external, ...own });
}
