/**
 * The request-log part's HTTP measure: each server (log off, log on) in a process of its own
 * (`server.ts`), autocannon in another, the server's CPU time read over IPC before and after each
 * load run (process.cpuUsage: every thread of the server process, the collector's included).
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PATCH_OP } from '../lib/users.js';

export const TOKEN = 'bench-token-0123456789abcdef';

/** A server process and its controls. */
export interface ServerProcess {
  readonly mode: 'off' | 'on' | 'queue' | 'built';
  readonly port: number;
  readonly id: string;
  /** The process's CPU time so far, in µs (user + system). */
  cpu(): Promise<number>;
  /** Wait until the log has stored what it queued: its counters and whether the last record is redacted. */
  flush(): Promise<{ flushed: { recorded: number; dropped: number; failed: number }; redacted: boolean }>;
  profileStart(): Promise<void>;
  profileStop(file: string): Promise<void>;
  close(): Promise<void>;
}

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

function ask<T>(child: ChildProcess, message: unknown, accept: (reply: unknown) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (reply: unknown): void => {
      const value = accept(reply);
      if (value === undefined) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(value);
    };
    const onExit = (): void => reject(new Error('the server process exited'));
    child.on('message', onMessage);
    child.on('exit', onExit);
    child.send(message as string);
  });
}

/** Start a server process; `cwd` (default this checkout) is the checkout whose packages it runs (its tsconfig maps them). */
export async function startServer(mode: 'off' | 'on' | 'queue' | 'built', cwd?: string): Promise<ServerProcess> {
  const child = fork(here('./server.ts'), [mode], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'], ...(cwd === undefined ? {} : { cwd }) });
  const ready = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve(String(message)));
    child.once('exit', (code) => reject(new Error(`server (${mode}) exited with ${code}`)));
  });
  const [, port, id] = ready.split(' ');
  return {
    mode,
    port: Number(port),
    id: id as string,
    cpu: () => ask(child, 'cpu', (reply) => (typeof reply === 'object' && reply !== null && 'cpu' in reply ? ((reply as { cpu: NodeJS.CpuUsage }).cpu.user + (reply as { cpu: NodeJS.CpuUsage }).cpu.system) : undefined)),
    flush: () => ask(child, 'flush', (reply) => (typeof reply === 'object' && reply !== null && 'flushed' in reply ? (reply as { flushed: { recorded: number; dropped: number; failed: number }; redacted: boolean }) : undefined)),
    profileStart: () => ask(child, 'profile-start', (reply) => (reply === 'profiling' ? true : undefined)).then(() => undefined),
    profileStop: (file) => ask(child, { profileTo: file }, (reply) => (reply === 'profiled' ? true : undefined)).then(() => undefined),
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.send('exit');
      }),
  };
}

const cannon = fileURLToPath(new URL('../../node_modules/autocannon/autocannon.js', import.meta.url));

/** One load run of `seconds` against a server: requests per second, non-2xx answers, the server's CPU µs per request. */
export async function load(server: ServerProcess, seconds: number, patch: boolean, connections = 10): Promise<{ rps: number; total: number; non2xx: number; cpuUs: number }> {
  const args = [cannon, '-j', '-c', String(connections), '-d', String(seconds), '-H', `authorization=Bearer ${TOKEN}`, '-H', 'content-type=application/scim+json', '-H', 'user-agent=Microsoft.Identity.Provisioning/1.0'];
  if (patch) args.push('-m', 'PATCH', '-I', '-b', JSON.stringify({ schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'displayName', value: 'Name [<id>]' }] }));
  args.push(`http://127.0.0.1:${server.port}/scim/v2/Users/${server.id}`);
  const before = await server.cpu();
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', reject);
    child.on('exit', () => resolve(text));
  });
  const after = await server.cpu();
  const result = JSON.parse(out) as { requests: { average: number; total: number }; non2xx: number };
  return { rps: result.requests.average, total: result.requests.total, non2xx: result.non2xx, cpuUs: (after - before) / Math.max(1, result.requests.total) };
}
