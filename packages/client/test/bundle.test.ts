import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('@scimkit/client in a browser bundle', () => {
  it('brings the core printer only: no parser, no chevrotain, nothing Node-specific', async () => {
    const result = await build({
      stdin: { contents: "export { createScimClient, userFilter, patchOps } from '@scimkit/client';", resolveDir: root, loader: 'ts' },
      bundle: true,
      minify: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'browser',
      // The repository's tsconfig paths resolve @scimkit/* to their sources.
      tsconfig: `${root}tsconfig.json`,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => /chevrotain|filter-parser|parse-filter|node:/.test(input))).toEqual([]);
    expect(inputs.filter((input) => input.includes('packages/core/'))).toEqual(['packages/core/src/filter/print-filter.ts', 'packages/core/src/printer/index.ts']);
    expect(result.outputFiles[0]!.contents.byteLength).toBeLessThan(30_000);
  });
});
