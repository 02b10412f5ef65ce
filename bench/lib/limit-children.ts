/**
 * What the limit benches (postgres-limit, sql-limit) share on the bench's side: a server script
 * started in a child process, and the CPU time of its PostgreSQL backends. The children's own side
 * is bench/postgres-limit/child.ts.
 *
 * The children run what users run: the @scimkit/* packages' built `dist` (tsup), imported by
 * package name, under plain node; the server scripts themselves are compiled to JavaScript
 * (TypeScript's transpileModule, no bundling). Under tsx (FROM_SOURCE=1, the sources through the
 * tsconfig's `paths`) every named function expression becomes a `__name` call, an
 * Object.defineProperty per closure created, which the built packages never pay
 * (docs/performance.md).
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type pg from 'pg';

/** FROM_SOURCE=1: the children run the @scimkit/* sources under tsx; otherwise the built packages. */
export const FROM_SOURCE = process.env['FROM_SOURCE'] === '1';

/** The checkout holding this file: where the server scripts are. */
const benchRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Builds the workspaces `names` of the checkout `dir`, and those they depend on, into their `dist`
 * (scripts/build-workspaces.mjs); the build's output is shown only if it fails.
 */
export function buildWorkspaces(dir: string, names: readonly string[]): void {
  try {
    execFileSync(process.execPath, ['scripts/build-workspaces.mjs', ...names], { cwd: dir, stdio: 'pipe', maxBuffer: 1 << 28 });
  } catch (error) {
    const e = error as { stdout?: Buffer; stderr?: Buffer };
    process.stderr.write(`${e.stdout?.toString() ?? ''}${e.stderr?.toString() ?? ''}`);
    throw new Error(`building ${names.join(', ')} in ${dir} failed`);
  }
}

/**
 * `script` and the files it imports by relative path, compiled into `out` (same layout as in this
 * checkout); returns the compiled script. Packages are left as imports: node resolves them from
 * the node_modules above `out`, the workspaces' `dist`.
 */
function compile(script: string, out: string): string {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    const js = ts.transpileModule(text, {
      fileName: file,
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true },
    }).outputText;
    const target = join(out, relative(benchRoot, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, js);
    for (const imported of ts.preProcessFile(text, true, false).importedFiles) {
      if (imported.fileName.startsWith('.')) visit(resolve(dirname(file), imported.fileName.replace(/\.js$/, '.ts')));
    }
  };
  visit(script);
  // node_modules is no package scope: without this, node would take the files for CommonJS.
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
  return join(out, relative(benchRoot, script)).replace(/\.ts$/, '.js');
}

export interface Child {
  readonly name: string;
  readonly process: ChildProcess;
  readonly base: string;
}

const CLOCK_TICKS = Number(process.env['CLOCK_TICKS'] ?? 100);

/**
 * Starts one server script in a child process. With `built` (a checkout whose workspaces are
 * built, see buildWorkspaces): the script compiled into that checkout's node_modules/.cache, under
 * plain node, so that `@scimkit/*` are that checkout's `dist`. Without: under tsx, `tsconfig`
 * giving the @scimkit/* sources. `profile`: a directory for node --cpu-prof.
 */
export async function startChild(name: string, script: string, options: { url: string; pool: number; tsconfig: string; built?: string; profile?: string }): Promise<Child> {
  const run = options.built === undefined ? script : compile(script, join(options.built, 'node_modules/.cache/scimkit-bench'));
  const child = fork(run, [], {
    execArgv: [...(options.built === undefined ? ['--import', 'tsx'] : []), ...(options.profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${options.profile}`])],
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
