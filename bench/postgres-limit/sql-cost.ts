/**
 * What one statement costs PostgreSQL, without HTTP or SCIM: each statement of `STATEMENTS` runs
 * N times as a named (prepared) statement on one connection, in ROUNDS turns (default 4; more turns
 * interleave them finer, so that the machine's load drifts over all alike), and the backend's CPU
 * time (/proc/<pid>/stat) per execution is reported with the client's wall time.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/<kept database> N=20000 npx tsx bench/postgres-limit/sql-cost.ts statements.json
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';

const N = Number(process.env['N'] ?? 20_000);
const ROUNDS = Number(process.env['ROUNDS'] ?? 4);
const USERS = Number(process.env['USERS'] ?? 100_000);
const client = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
await client.connect();
const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
const ticks = (): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return Number(fields[11]) + Number(fields[12]);
};
const user = (): string => `u${1 + Math.floor(Math.random() * USERS)}`;
const mail = (): string => `USER${1 + Math.floor(Math.random() * USERS)}@example.com`;
const statements: Record<string, { text: string; params: () => unknown[] }> = JSON.parse(readFileSync(process.argv[2] ?? '/dev/stdin', 'utf8'), (key, value) =>
  key === 'params' ? () => (value as string[]).map((p) => (p === '$user' ? user() : p === '$mail' ? mail() : p)) : value,
);
const totals = new Map<string, { micros: number; wall: number; n: number }>();
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, s] of Object.entries(statements)) {
    const before = ticks();
    const started = performance.now();
    for (let i = 0; i < N / ROUNDS; i++) await client.query({ name, text: s.text, values: s.params() });
    const wall = performance.now() - started;
    const t = totals.get(name) ?? { micros: 0, wall: 0, n: 0 };
    totals.set(name, { micros: t.micros + (ticks() - before) * 10_000, wall: t.wall + wall * 1000, n: t.n + N / ROUNDS });
  }
}
for (const [name, t] of totals) console.log(`${name.padEnd(24)} backend ${(t.micros / t.n).toFixed(1)} µs, round trip ${(t.wall / t.n).toFixed(1)} µs`);
await client.end();
