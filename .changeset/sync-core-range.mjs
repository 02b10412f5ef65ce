#!/usr/bin/env node
/**
 * After `changeset version`: every adapter's peer range on @scimkit/core becomes `^<core version>`
 * and its devDependency the exact version, so the released adapters ask for the core they were
 * released with (the packages share one version; tests/packaging/check-packages.mjs checks it).
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packages = fileURLToPath(new URL('../packages/', import.meta.url));
const core = JSON.parse(readFileSync(join(packages, 'core', 'package.json'), 'utf8')).version;
for (const dir of readdirSync(packages)) {
  const file = join(packages, dir, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  if (manifest.peerDependencies?.['@scimkit/core'] === undefined) continue;
  manifest.peerDependencies['@scimkit/core'] = `^${core}`;
  if (manifest.devDependencies?.['@scimkit/core'] !== undefined) manifest.devDependencies['@scimkit/core'] = core;
  writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
}
