import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const SCIM = 'application/scim+json';

/** One scimkit process started from an example's `main.ts`, and how to talk to it. */
export interface ScimInstance {
  readonly child: ChildProcess;
  /** What the process printed as its address (the mount path included). */
  readonly baseUrl: string;
  send(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
}

/** Start `main` (a path from the repository root) with SCIMKIT_STORE=`store` on an ephemeral port. */
export function startInstance(main: string, store: string): Promise<ScimInstance> {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', SCIMKIT_STORE: store, SCIM_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening at (http:\/\/\S+)/.exec(output);
      if (found?.[1] !== undefined) resolve({ child, baseUrl: found[1], send: (...args) => send(found[1] as string, ...args) });
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`instance exited with ${code}: ${output}`)));
  });
}

/** Stop the instances and wait until each has exited (SIGTERM: the server closes its store). */
export async function stopInstances(instances: readonly ScimInstance[]): Promise<void> {
  for (const { child } of instances) child.kill('SIGTERM');
  await Promise.all(instances.map(({ child }) => new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(undefined)))));
}

async function send(baseUrl: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { accept: SCIM, ...(body === undefined ? {} : { 'content-type': SCIM }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}
