// Builds workspaces, each after the workspaces it depends on (dependencies, peerDependencies and
// devDependencies naming another workspace), so that a package whose declaration build reads
// another's `dist` types never runs before it. With no argument: every workspace with a `build`
// script. With names (`node scripts/build-workspaces.mjs @scimkit/example-full-server`): those and
// the workspaces they depend on, transitively.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const root = JSON.parse(readFileSync('package.json', 'utf8'));
const dirs = root.workspaces.flatMap((pattern) => {
  if (!pattern.endsWith('/*')) return [pattern];
  const parent = pattern.slice(0, -2);
  return readdirSync(parent, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => join(parent, e.name));
});
const workspaces = new Map();
for (const dir of dirs) {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) continue;
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  workspaces.set(pkg.name, pkg);
}

const order = [];
const state = new Map();
const visit = (name) => {
  if (state.get(name) === 'done') return;
  if (state.get(name) === 'visiting') throw new Error(`workspace dependency cycle through ${name}`);
  state.set(name, 'visiting');
  const pkg = workspaces.get(name);
  for (const field of ['dependencies', 'peerDependencies', 'devDependencies']) {
    for (const dep of Object.keys(pkg[field] ?? {})) if (workspaces.has(dep) && dep !== name) visit(dep);
  }
  state.set(name, 'done');
  order.push(name);
};
const wanted = process.argv.slice(2);
for (const name of wanted) if (!workspaces.has(name)) throw new Error(`no workspace named ${name}`);
for (const name of wanted.length > 0 ? wanted : [...workspaces.keys()].sort()) visit(name);

for (const name of order) {
  if (!workspaces.get(name).scripts?.build) continue;
  execFileSync('npm', ['run', 'build', '-w', name], { stdio: 'inherit' });
}
