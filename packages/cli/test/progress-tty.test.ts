import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CHECKS, main } from '../src/index.js';
import { FAULTS, FAULTY_TOKEN } from './support/faults.js';
import { serveFaulty, type Running } from './support/serve-faulty.js';
import { VirtualTerminal } from './support/virtual-terminal.js';

// A server with one fault (it answers application/json), so that one discovery check fails.
let server: Running;
beforeAll(async () => {
  server = await serveFaulty(FAULTS.find((fault) => fault.name === 'answers application/json'));
});
afterAll(() => server.close());

const isProgress = (line: string): boolean => /^\[\d+\/\d+\] /.test(line);
/** The progress lines of `--tag discovery`, in order: each check, then the clean-up. */
const progressLines = (): string[] => {
  const discovery = ALL_CHECKS.filter((check) => check.tag === 'discovery');
  const total = discovery.length + 1;
  return [...discovery.map((check, i) => `[${i + 1}/${total}] ${check.id} ${check.title}`), `[${total}/${total}] cleanup.deleted Every resource the checks created is deleted`];
};

/** What the finished run leaves on the screen. */
function expectFinalScreen(lines: readonly string[]): void {
  // The progress line is gone; the failure printed as it happened stays, above the summary table.
  expect(lines.filter(isProgress)).toEqual([]);
  const failLine = lines.indexOf('FAIL discovery.media-type');
  const header = lines.findIndex((line) => /^tag\s+passed\s+failed\s+skipped$/.test(line));
  expect(failLine).toBeGreaterThanOrEqual(0);
  expect(header).toBeGreaterThan(failLine);
  expect(lines).toContainEqual(expect.stringMatching(/^discovery\s+4\s+1\s+0$/));
  expect(lines).toContain('✗ discovery.media-type: Answers are application/scim+json');
  expect(lines).toContain('  expected: Content-Type: application/scim+json (RFC 7644 §8.1)');
  expect(lines.filter((line) => line !== '').at(-1)).toBe('1 check failed.');
}

describe('the live progress line in a terminal', () => {
  it('shows one line, rewritten in place for each check; failures stay; then the summary', async () => {
    const terminal = new VirtualTerminal();
    const current: string[] = [];
    let mostProgressLinesAtOnce = 0;
    const code = await main(['check', server.url, '--token', FAULTY_TOKEN, '--tag', 'discovery'], {
      stdout: (text) => {
        terminal.write(text);
        current.push(terminal.current);
        mostProgressLinesAtOnce = Math.max(mostProgressLinesAtOnce, terminal.lines.filter(isProgress).length);
      },
      stderr: (text) => terminal.write(text),
      tty: true,
    });
    expect(code).toBe(1);
    // While each check ran, the line under the cursor named it: `[k/N] id title`, in order.
    expect(current.filter(isProgress)).toEqual(progressLines());
    // Never two progress lines on the screen: each one replaced the one before.
    expect(mostProgressLinesAtOnce).toBe(1);
    expectFinalScreen(terminal.lines);
    // In colour: FAIL in red, titles dimmed.
    expect(terminal.raw).toContain('\u001b[31mFAIL\u001b[39m discovery.media-type');
    expect(terminal.raw).toContain('\u001b[2mGET /ServiceProviderConfig describes the features\u001b[22m');
  });

  it('is what the command shows in a real pseudo-terminal (util-linux script), and piped output has no control characters', async () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const command = `${JSON.stringify(process.execPath)} --import tsx packages/cli/src/cli.ts check ${server.url} --token ${FAULTY_TOKEN} --tag discovery`;
    const run = (argv: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(argv[0]!, argv.slice(1), { cwd: root, env: { ...process.env, TERM: 'xterm' }, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('close', (code) => resolve({ code, out }));
      });
    // script -e returns the command's exit code; its stdout is a terminal (process.stdout.isTTY).
    const [inTerminal, piped] = await Promise.all([run(['script', '-qfec', command, '/dev/null']), run(['sh', '-c', command])]);
    const terminal = new VirtualTerminal();
    terminal.write(inTerminal.out);
    expect(inTerminal.code).toBe(1);
    expect(terminal.raw).toContain(`\r\u001b[2K${progressLines()[0]!.replace(/ GET /, ' \u001b[2mGET ')}`);
    expectFinalScreen(terminal.lines);

    expect(piped.code).toBe(1);
    // eslint-disable-next-line no-control-regex
    expect(piped.out).not.toMatch(/[\r\u001b]/);
    expect(piped.out).toMatch(/^FAIL discovery\.media-type$/m);
    expect(piped.out).toMatch(/^pass discovery\.schemas$/m);
  }, 60_000);
});
