#!/usr/bin/env node
/**
 * docs/getting-started.md runs as written: run by .ci/run after `npm run build`. In a fresh directory
 * outside the repository it runs the page's "install" block (with `@scimkit/*` installed from the
 * `npm pack`ed tarballs; third-party packages such as express come from the npm registry), saves the
 * page's `server.js`, starts it with the page's "serve" block and runs the "try" block, checking that
 * the user is created, found and that /ServiceProviderConfig answers. The only edits to the page's
 * text: tarball paths for the @scimkit names, and a free port instead of 8080. Takes well under a minute
 * with a warm npm cache.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const page = readFileSync(join(root, 'docs/getting-started.md'), 'utf8');
const started = Date.now();

/** The fenced block right after `<!-- getting-started: name -->`, or after a `<!-- from: -->` line naming `file`. */
function block(marker) {
  const at = page.indexOf(marker);
  if (at < 0) throw new Error(`docs/getting-started.md has no ${marker}`);
  const match = /```\w*\n([\s\S]*?)```/.exec(page.slice(at));
  if (match === null) throw new Error(`no code block after ${marker}`);
  return match[1];
}

const install = block('<!-- getting-started: install -->');
const server = block('<!-- from: tests/packaging/getting-started/server.js -->');
const serve = block('<!-- getting-started: serve -->');
const attempt = block('<!-- getting-started: try -->');

const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
});

const scratch = mkdtempSync(join(tmpdir(), 'scimkit-getting-started-'));
let child;
try {
  // 1. The packages as npm would publish them.
  const tarballs = join(scratch, 'tarballs');
  mkdirSync(tarballs);
  const names = [...new Set([...install.matchAll(/@scimkit\/([\w-]+)/g)].map((m) => m[1]))];
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', tarballs, ...names.flatMap((name) => ['-w', `packages/${name}`])], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const tarballOf = Object.fromEntries(packed.map((p) => [p.name, join(tarballs, p.filename)]));

  // 2. The install block, with tarball paths for our packages.
  const script = install.replace(/@scimkit\/[\w-]+/g, (name) => {
    if (tarballOf[name] === undefined) throw new Error(`${name} was not packed`);
    return tarballOf[name];
  });
  const env = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  execFileSync('bash', ['-euo', 'pipefail', '-c', `${script}\npwd > ${JSON.stringify(join(scratch, 'project-dir'))}`], { cwd: scratch, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const project = readFileSync(join(scratch, 'project-dir'), 'utf8').trim();

  // 3. server.js as printed, on a free port.
  writeFileSync(join(project, 'server.js'), server.replaceAll('8080', String(port)));

  // 4. Serve, wait for the line it prints, then the try block.
  child = spawn('bash', ['-c', serve], { cwd: project, env, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server.js did not start within 20 s')), 20_000);
    let out = '';
    child.stdout.on('data', (data) => {
      out += data;
      if (out.includes(`http://127.0.0.1:${port}/scim/v2`)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`server.js exited with ${code}`)));
  });
  const output = execFileSync('bash', ['-euo', 'pipefail', '-c', attempt.replaceAll('8080', String(port))], { cwd: project, env, encoding: 'utf8' });

  const documents = output.split(/\n(?=\{)|(?<=\})(?=\{)/).map((text) => JSON.parse(text));
  const [created, found, config] = documents;
  const failures = [];
  if (documents.length !== 3) failures.push(`expected 3 JSON answers, got ${documents.length}: ${output}`);
  if (created?.userName !== 'bjensen' || typeof created?.id !== 'string') failures.push(`POST /Users did not create bjensen: ${JSON.stringify(created)}`);
  if (found?.totalResults !== 1 || found?.Resources?.[0]?.id !== created?.id) failures.push(`the filter did not find bjensen: ${JSON.stringify(found)}`);
  if (!config?.schemas?.includes('urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig')) failures.push(`no ServiceProviderConfig: ${JSON.stringify(config)}`);
  if (failures.length > 0) {
    console.error(`getting-started check failed:\n- ${failures.join('\n- ')}`);
    process.exitCode = 1;
  } else {
    console.log(`getting-started: docs/getting-started.md ran as written with packed ${names.map((n) => `@scimkit/${n}`).join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
} finally {
  // The serve block's process group (bash and the node it started), and nothing else.
  if (child?.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
}
