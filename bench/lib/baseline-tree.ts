/**
 * The limit benches' baseline (BASELINE_REF): scimkit as it was at a git commit, beside this
 * checkout's servers in the same interleaved rounds, so that before and after are measured in one
 * run. Shared by postgres-limit and sql-limit.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The packages `packages` (directory names under packages/, in dependency order) of the checkout
 * `root` at `ref`, extracted to a temporary directory with a tsconfig of its own; the caller removes
 * it. From source (`fromSource`): their sources beside `root`'s node_modules. Built: the packages
 * whole, built there with their own tsup configs, under a node_modules of `root`'s packages but for
 * those named, which are the baseline's.
 */
export function baselineTree(root: string, ref: string, packages: readonly string[], fromSource: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'scimkit-baseline-'));
  const exists = (path: string): boolean => {
    try {
      execFileSync('git', ['-C', root, 'cat-file', '-e', `${ref}:${path}`], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  const paths = fromSource
    ? [...packages.flatMap((p) => [`packages/${p}/src`, `packages/${p}/package.json`]), 'package.json', 'tsconfig.json', 'tsconfig.base.json']
    : [...packages.map((p) => `packages/${p}`), ...['package.json', 'tsconfig.json', 'tsconfig.base.json', 'tsup.shared.ts', 'scripts/build-workspaces.mjs'].filter(exists)];
  const archive = execFileSync('git', ['-C', root, 'archive', ref, ...paths], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive, maxBuffer: 1 << 30 });
  writeFileSync(join(dir, 'BASELINE'), ref);
  if (fromSource) {
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    return dir;
  }
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@scimkit'), { recursive: true });
  for (const entry of readdirSync(join(root, 'node_modules'))) {
    if (entry !== '@scimkit' && entry !== '.cache') symlinkSync(join(root, 'node_modules', entry), join(modules, entry));
  }
  for (const entry of readdirSync(join(root, 'node_modules/@scimkit'))) {
    const own = packages.includes(entry);
    symlinkSync(own ? join(dir, 'packages', entry) : join(root, 'node_modules/@scimkit', entry), join(modules, '@scimkit', entry));
  }
  // In dependency order: a package's declaration build reads the types of those before it.
  for (const p of packages) {
    try {
      execFileSync(process.execPath, [join(root, 'node_modules/tsup/dist/cli-default.js')], { cwd: join(dir, 'packages', p), stdio: 'pipe', maxBuffer: 1 << 28 });
    } catch (error) {
      const e = error as { stdout?: Buffer; stderr?: Buffer };
      process.stderr.write(`${e.stdout?.toString() ?? ''}${e.stderr?.toString() ?? ''}`);
      throw new Error(`building @scimkit/${p} at ${ref} failed`);
    }
  }
  return dir;
}
