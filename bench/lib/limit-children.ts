/**
 * What the limit benches (postgres-limit, sql-limit) share on the bench's side: a server script
 * started in a child process, and the CPU time of its PostgreSQL backends. The children's own side
 * is bench/postgres-limit/child.ts.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type pg from 'pg';

export interface Child {
  readonly name: string;
  readonly process: ChildProcess;
  readonly base: string;
}

const CLOCK_TICKS = Number(process.env['CLOCK_TICKS'] ?? 100);

/** Starts one server script in a child process (tsx, `tsconfig` giving the @scimkit/* sources; `profile`: a directory for node --cpu-prof). */
export async function startChild(name: string, script: string, options: { url: string; pool: number; tsconfig: string; profile?: string }): Promise<Child> {
  const child = fork(script, [], {
    execArgv: ['--import', 'tsx', ...(options.profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${options.profile}`])],
    env: { ...process.env, DATABASE_URL: options.url, POOL: String(options.pool), TSX_TSCONFIG_PATH: options.tsconfig, SERVER_NAME: name },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  return { name, process: child, base: `http://127.0.0.1:${port}` };
}

/**
 * CPU time (µs) of the PostgreSQL backends serving `child` (its pool's connections, by
 * `application_name`), from /proc: what the server's statements cost the database. 0 where /proc
 * cannot be read (not Linux, or another machine's server).
 */
export async function backendMicros(pool: pg.Pool, child: Child): Promise<number> {
  const found = await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()', [child.name]);
  let ticks = 0;
  for (const { pid } of found.rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The backend ended meanwhile, or /proc is not there.
    }
  }
  return (ticks * 1_000_000) / CLOCK_TICKS;
}
