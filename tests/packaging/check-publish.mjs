// publint (--strict) and @arethetypeswrong/cli over every published package, as npm would pack it:
// the `exports` map, `files`, the CommonJS and ESM entry points and their types resolve under node10,
// node16 (from CJS and from ESM) and bundler resolution. Run after `npm run build` (.ci/run does).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url).pathname;
const bin = (name) => join(root, 'node_modules', '.bin', name);
const failed = [];

for (const name of readdirSync(join(root, 'packages')).sort()) {
  const dir = join(root, 'packages', name);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (manifest.private === true) continue;
  for (const [tool, args] of [
    ['publint', ['run', '.', '--strict']],
    ['attw', ['--pack', '.', '--format', 'ascii']],
  ]) {
    try {
      execFileSync(bin(tool), args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
      console.log(`${tool} ${manifest.name}: ok`);
    } catch (error) {
      failed.push(`${tool} ${manifest.name}`);
      console.log(`${tool} ${manifest.name}: FAILED\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    }
  }
}

if (failed.length > 0) {
  console.error(`publint/attw found problems in: ${failed.join(', ')}`);
  process.exit(1);
}
