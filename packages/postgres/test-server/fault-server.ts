import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const SCIM = 'application/scim+json';

/** One full reference server process for the fault suite, watched for an exit. */
export interface FaultServer {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  /** The process root URL (for /livez and /readyz). */
  readonly origin: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Exit codes or signals seen (should stay empty until `stop`). */
  readonly exits: string[];
  stop(): Promise<void>;
}

/** The bounds the suite runs the server with (SCIMKIT_PG_*, read by postgresOptionsFromEnv of @scimkit/postgres). */
export const BOUNDS = { statementTimeoutMs: 1_500, acquireTimeoutMs: 1_000, poolSize: 4 } as const;

/** A server process being started: its output so far, and the server once it listens. */
export interface LaunchedServer {
  readonly child: ChildProcess;
  output(): string;
  readonly exits: string[];
  /** Resolves once it listens (start-up may wait for the database); rejects if it exits first. */
  readonly listening: Promise<FaultServer>;
}

/** Starts examples/full-server on `store` with the suite's bounds. */
export function launchFaultServer(store: string, env: Record<string, string> = {}): LaunchedServer {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/full-server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      SCIMKIT_STORE: store,
      SCIM_TOKEN: '',
      SCIMKIT_PG_STATEMENT_TIMEOUT_MS: String(BOUNDS.statementTimeoutMs),
      SCIMKIT_PG_ACQUIRE_TIMEOUT_MS: String(BOUNDS.acquireTimeoutMs),
      SCIMKIT_PG_POOL_SIZE: String(BOUNDS.poolSize),
      SCIMKIT_PG_STARTUP_TIMEOUT_MS: '30000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exits: string[] = [];
  child.once('exit', (code, signal) => exits.push(`exit ${code ?? signal}`));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const listening = new Promise<FaultServer>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening at (http:\/\/\S+)/.exec(output);
      if (found?.[1] !== undefined) resolve({ child, baseUrl: found[1], origin: new URL(found[1]).origin, output: () => output, exits, stop });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening: ${output}`)));
  });
  listening.catch(() => undefined);
  return { child, output: () => output, exits, listening };
}

/** Starts examples/full-server on `store` and waits until it listens. */
export function startFaultServer(store: string, env: Record<string, string> = {}): Promise<FaultServer> {
  return launchFaultServer(store, env).listening;
}

export interface Answer {
  readonly status: number;
  readonly body: any;
  readonly retryAfter: string | null;
  readonly ms: number;
}

/** One SCIM request; a request that gets no HTTP answer within `limitMs` is status 0 (never answered). */
export async function request(baseUrl: string, method: string, path: string, body?: unknown, limitMs = 30_000): Promise<Answer> {
  const started = performance.now();
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { accept: SCIM, ...(body === undefined ? {} : { 'content-type': SCIM }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(limitMs),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: response.status, body: parsed, retryAfter: response.headers.get('retry-after'), ms: performance.now() - started };
  } catch (error) {
    return { status: 0, body: String(error), retryAfter: null, ms: performance.now() - started };
  }
}
