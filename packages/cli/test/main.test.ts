import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CHECKS, main } from '../src/index.js';
import { FAULTY_TOKEN } from './support/faults.js';
import { serveFaulty, type Running } from './support/serve-faulty.js';

let server: Running;
const scratch = mkdtempSync(join(tmpdir(), 'scimkit-cli-'));
beforeAll(async () => {
  server = await serveFaulty();
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function run(args: string[], fetcher?: typeof fetch) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), tty: false, ...(fetcher === undefined ? {} : { fetch: fetcher }) });
  return { code, stdout, stderr };
}

describe('scimkit check (the command)', () => {
  it('exits 0 when every applicable check passes, with a summary table', async () => {
    const { code, stdout } = await run(['check', server.url, '--token', FAULTY_TOKEN, '--tag', 'discovery,errors']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^pass discovery\.schemas$/m);
    expect(stdout).toMatch(/^discovery\s+5\s+0\s+0$/m);
    expect(stdout).toMatch(/All \d+ applicable checks passed\./);
  });

  it('exits 1 when a check fails, and says what was sent, received and expected', async () => {
    // Without the token the server answers 401: the checks fail.
    const { code, stdout } = await run(['check', server.url, '--tag', 'users', '--only-idp', 'okta']);
    expect(code).toBe(1);
    expect(stdout).toContain('✗ users.create');
    expect(stdout).toMatch(/sent: +POST http:\/\/127\.0\.0\.1:\d+\/scim\/v2\/Users/);
    expect(stdout).toMatch(/received: 401/);
    expect(stdout).toMatch(/expected: 201/);
    // --only-idp okta leaves out the other providers' checks.
    expect(stdout).toContain('users.okta-create');
    expect(stdout).not.toContain('users.onelogin-put-update');
  });

  it('--only-idp entra keeps the RFC checks and Entra ID\'s, and leaves out Okta\'s, OneLogin\'s and Google\'s', async () => {
    const { stdout } = await run(['check', server.url, '--token', FAULTY_TOKEN, '--tag', 'patch,groups', '--only-idp', 'entra', '--json']);
    const results = JSON.parse(stdout).results as { id: string; idp?: string; status: string }[];
    expect(new Set(results.map((r) => r.idp ?? 'rfc'))).toEqual(new Set(['rfc', 'entra']));
    expect(results.map((r) => r.id)).toEqual(expect.arrayContaining(['patch.replace-path', 'patch.entra-capitalised-ops', 'groups.entra-add-member']));
    expect(results.filter((r) => r.status !== 'pass')).toEqual([]);
  });

  it('a failure in JUnit XML: the testcase has a failure with found, expected, the reference, sent and received', async () => {
    const junit = join(scratch, 'failing.xml');
    const { code } = await run(['check', server.url, '--tag', 'users', '--only-idp', 'okta', '--junit', junit]);
    expect(code).toBe(1);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuite name="users" tests="\d+" failures="[1-9]\d*"/);
    const failure = /<testcase classname="scimkit\.check\.users" name="users\.create: [^"]*" time="[\d.]+">\s*<failure message="([^"]*)" type="RFC 7644 §3\.3">([^<]*)<\/failure>/.exec(xml);
    expect(failure?.[1]).toBe('POST answered 401');
    expect(failure?.[2]).toContain('expected: 201 (RFC 7644 §3.3: 201 Created)');
    expect(failure?.[2]).toMatch(/sent: POST http:\/\/127\.0\.0\.1:\d+\/scim\/v2\/Users/);
    expect(failure?.[2]).toContain('received: 401');
  });

  it('every check names the RFC section it follows or the client it imitates', () => {
    const providers = { entra: 'Microsoft Entra ID', okta: 'Okta', onelogin: 'OneLogin', google: 'Google' } as const;
    for (const check of ALL_CHECKS) {
      if (check.idp === undefined) expect(check.reference, check.id).toMatch(/^RFC \d{4} §\d+(\.\d+)*/);
      else expect(check.reference, check.id).toContain(providers[check.idp]);
    }
    expect(new Set(ALL_CHECKS.map((check) => check.idp).filter(Boolean))).toEqual(new Set(['entra', 'okta', 'onelogin', 'google']));
  });

  it('--json prints the report; --junit writes JUnit XML', async () => {
    const junit = join(scratch, 'report.xml');
    const { code, stdout } = await run(['check', server.url, '--token', FAULTY_TOKEN, '--tag', 'etags', '--json', '--junit', junit]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.results.map((r: { id: string }) => r.id)).toEqual(['etags.header', 'etags.if-none-match', 'etags.version-changes', 'etags.if-match-current', 'etags.if-match-stale', 'cleanup.deleted']);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuite name="etags" tests="5" failures="0"/);
    expect(xml).toContain('name="cleanup.deleted: Every resource the checks created is deleted"');
  });

  it('writes only with --allow-writes against a server that is not on this machine', async () => {
    // scim.example.test is routed to the local server: the command sees a remote host.
    const remote = 'http://scim.example.test/scim/v2';
    const routed: typeof fetch = (input, init) => fetch(String(input).replace(remote, server.url), init);
    const readOnly = await run(['check', remote, '--token', FAULTY_TOKEN, '--json'], routed);
    const report = JSON.parse(readOnly.stdout);
    expect(report.writes).toBe(false);
    expect(report.results.find((r: { id: string }) => r.id === 'users.create')).toMatchObject({ status: 'skip', reason: expect.stringContaining('--allow-writes') });
    expect(report.results.find((r: { id: string }) => r.id === 'discovery.schemas').status).toBe('pass');
    expect(readOnly.code).toBe(0);
    const writes = await run(['check', remote, '--token', FAULTY_TOKEN, '--json', '--allow-writes', '--tag', 'users'], routed);
    expect(JSON.parse(writes.stdout).results.find((r: { id: string }) => r.id === 'users.create').status).toBe('pass');
  });

  it('sends --header on every request and honours --timeout', async () => {
    const seen: string[] = [];
    const spy: typeof fetch = (input, init) => {
      seen.push(new Headers(init?.headers).get('x-tenant') ?? '');
      return fetch(input, init);
    };
    await run(['check', server.url, '--token', FAULTY_TOKEN, '--tag', 'discovery', '--header', 'X-Tenant: acme'], spy);
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.every((value) => value === 'acme')).toBe(true);
    const stalled: typeof fetch = (_input, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    const slow = await run(['check', server.url, '--timeout', '100', '--tag', 'discovery'], stalled);
    expect(slow.code).toBe(2);
    expect(slow.stderr).toMatch(/Cannot reach the server/);
  });

  it('refuses bad arguments with exit code 2', async () => {
    expect((await run(['check'])).code).toBe(2);
    expect((await run(['check', 'not a url'])).stderr).toMatch(/not a URL/);
    expect((await run(['check', server.url, '--tag', 'nope'])).stderr).toMatch(/unknown --tag nope/);
    expect((await run(['check', server.url, '--only-idp', 'aol'])).code).toBe(2);
    expect((await run(['check', server.url, '--header', 'no colon'])).code).toBe(2);
    expect((await run(['check', server.url, '--timeout', '-1'])).code).toBe(2);
    expect((await run(['--list'])).stdout).toMatch(/^filters\.co\s+RFC 7644 §3\.4\.2\.2$/m);
  });

  it('the bin runs from the TypeScript sources when nothing is built (a fresh clone)', async () => {
    const bin = fileURLToPath(new URL('../bin/scimkit.mjs', import.meta.url));
    const child = spawn(process.execPath, [bin, 'check', server.url, '--token', FAULTY_TOKEN, '--tag', 'discovery'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(out).toMatch(/All \d+ applicable checks passed/);
    expect(code).toBe(0);
  }, 60_000);

  it('a reader that stops early (| head) ends no run half-way: no EPIPE crash, the clean-up still deletes', async () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', 'packages/cli/src/cli.ts', 'check', server.url, '--token', FAULTY_TOKEN, '--tag', 'users'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // The first line read, the reader goes away, as `head -1` does.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const left = await fetch(`${server.url}/Users?filter=${encodeURIComponent('userName sw "scimkit-check-"')}`, { headers: { authorization: `Bearer ${FAULTY_TOKEN}` } });
    expect(((await left.json()) as { totalResults: number }).totalResults).toBe(0);
  }, 60_000);
});
