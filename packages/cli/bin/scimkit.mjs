#!/usr/bin/env node
// The `scimkit` command. A published package runs its build (dist/cli.js). In a clone of the
// repository, before any build, it runs the TypeScript sources through tsx (a root devDependency)
// with the root tsconfig.json, whose `paths` resolve @scimkit/* to their sources: so
// `npm install && npx scimkit check <url>` works on a fresh clone with no build step.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const built = join(here, '..', 'dist', 'cli.js');
const source = join(here, '..', 'src', 'cli.ts');
const repositoryTsconfig = join(here, '..', '..', '..', 'tsconfig.json');

if (existsSync(source) && existsSync(repositoryTsconfig) && !existsSync(built)) {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: repositoryTsconfig });
  await import(pathToFileURL(source).href);
} else {
  await import(pathToFileURL(built).href);
}
