import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { expectBoundedAnswers, timeToService, writeProblems, type Recorded, type TrackedUser, type UserState } from '../../postgres/test-server/fault-checks.js';
import { request, type Answer } from '../../postgres/test-server/fault-server.js';
import { mysqlFaultDatabase, postgresFaultDatabase, type FaultDatabase } from './fault-databases.js';

/*
 * The fault-injection suite of issue 18 for the mapped SQL store (docs/operations/database-failures.md):
 * the own-tables example as a child process on a database of its own, on the PostgreSQL and the
 * MariaDB server, under a bounded mixed load (creates, PATCHes, member changes, deletes), while the
 * database ends its connections, refuses connections, holds a table lock, and fails one statement
 * mid-transaction through a trigger. The process must never exit, every request must get an HTTP
 * answer within the bound (503 with Retry-After for transient failures), every acknowledged write
 * must be there afterwards and no refused one half-applied, and service must be back within a second.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const BOUNDS = { acquireTimeoutMs: 1_000, statementTimeoutMs: 1_500, poolSize: 4 } as const;
/** A request waits at most for a connection and one statement, plus this margin. */
const MARGIN_MS = 1_000;
const BOUND_MS = BOUNDS.acquireTimeoutMs + BOUNDS.statementTimeoutMs + MARGIN_MS;
const WORKERS = 6;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const patch = (...operations: unknown[]) => ({ schemas: [PATCH_OP], Operations: operations });

interface OwnTablesServer {
  readonly baseUrl: string;
  readonly origin: string;
  readonly exits: string[];
  readonly pid: number | undefined;
  output(): string;
  stop(): Promise<void>;
}

/** Starts examples/own-tables (npm run start:own-tables) on `store` with the suite's bounds. */
function startOwnTables(store: string): Promise<OwnTablesServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/own-tables/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      SCIMKIT_STORE: store,
      SCIM_TOKEN: '',
      SCIMKIT_SQL_ACQUIRE_TIMEOUT_MS: String(BOUNDS.acquireTimeoutMs),
      SCIMKIT_SQL_STATEMENT_TIMEOUT_MS: String(BOUNDS.statementTimeoutMs),
      SCIMKIT_SQL_POOL_SIZE: String(BOUNDS.poolSize),
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
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise<OwnTablesServer>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening at (http:\/\/\S+)/.exec(output);
      if (found?.[1] !== undefined) resolve({ baseUrl: found[1], origin: new URL(found[1]).origin, exits, pid: child.pid, output: () => output, stop });
    });
    child.once('exit', (code) => reject(new Error(`own-tables exited with ${code} before listening: ${output}`)));
  });
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
}, 60_000);

const servers: [string, string | undefined, (url: string) => Promise<FaultDatabase>][] = [
  ['PostgreSQL', process.env['SCIMKIT_PG_URL'], postgresFaultDatabase],
  ['MariaDB', process.env['SCIMKIT_MYSQL_URL'], mysqlFaultDatabase],
];

for (const [name, admin, open] of servers) {
  if (admin === undefined || admin === '') continue;
  describe(`database faults under load (own tables, @scimkit/sql on ${name})`, () => {
    it('never exits, answers every request within the bound, loses no acknowledged write and half-applies no refused one', async () => {
      const database = await open(admin);
      cleanups.push(() => database.drop());
      const server = await startOwnTables(database.url);
      cleanups.push(() => server.stop());
      const base = server.baseUrl;

      let phase = 'warm-up';
      const answers: Recorded[] = [];
      const send = async (what: string, method: string, path: string, body?: unknown): Promise<Answer> => {
        const answer = await request(base, method, path, body, BOUND_MS + 10_000);
        answers.push({ ...answer, phase, what });
        return answer;
      };

      const groups: string[] = [];
      for (let w = 0; w < WORKERS; w++) {
        const created = await send('setup', 'POST', '/Groups', { schemas: [GROUP], displayName: `crew-${w}` });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        groups.push(created.body.id);
      }
      const hot = await send('setup', 'POST', '/Users', { schemas: [USER], userName: 'hot@example.com' });
      expect(hot.status).toBe(201);

      const users: TrackedUser[][] = Array.from({ length: WORKERS }, () => []);
      let stop = false;
      let serial = 0;

      async function step(w: number): Promise<void> {
        const mine = users[w] as TrackedUser[];
        const live = mine.filter((u) => !u.frozen && u.id !== undefined && u.states[0]?.exists === true);
        const roll = Math.random();
        if (live.length < 3 || roll < 0.2) {
          const tracked: TrackedUser = { userName: `w${w}-u${++serial}@example.com`, states: [], frozen: false, createUncertain: false };
          mine.push(tracked);
          const answer = await send('create', 'POST', '/Users', { schemas: [USER], userName: tracked.userName });
          if (answer.status === 201) {
            tracked.id = answer.body.id;
            tracked.states = [{ exists: true, member: false }];
          } else {
            tracked.createUncertain = true;
            tracked.frozen = true;
          }
          return;
        }
        const target = live[Math.floor(Math.random() * live.length)] as TrackedUser;
        const now = target.states[0] as UserState;
        let next: UserState;
        let answer: Answer;
        if (roll < 0.55) {
          const title = `t${++serial}`;
          next = { ...now, title };
          answer = await send('patch title', 'PATCH', `/Users/${target.id}`, patch({ op: 'replace', path: 'title', value: title }));
        } else if (roll < 0.85) {
          next = { ...now, member: !now.member };
          const operation = now.member ? { op: 'remove', path: `members[value eq "${target.id}"]` } : { op: 'add', path: 'members', value: [{ value: target.id }] };
          answer = await send(now.member ? 'remove member' : 'add member', 'PATCH', `/Groups/${groups[w]}`, patch(operation));
        } else {
          next = { exists: false, member: false };
          answer = await send('delete', 'DELETE', `/Users/${target.id}`);
        }
        if (answer.status >= 200 && answer.status < 300) target.states = [next];
        else {
          target.states = [now, next];
          target.frozen = true;
        }
      }

      const workers = Array.from({ length: WORKERS }, async (_, w) => {
        while (!stop) await step(w);
      });

      const recoveries: Record<string, number> = {};
      try {
        await sleep(1_000);

        // 1. Connections ended repeatedly (a failover, a proxy restart, KILL CONNECTION).
        phase = 'terminate';
        for (let i = 0; i < 8; i++) {
          await database.terminate();
          await sleep(250);
        }
        recoveries['terminate'] = await timeToService(base);

        // 2. Connections refused for a few seconds.
        phase = 'refuse';
        await database.refuse(true);
        await sleep(800);
        const livez = await request(server.origin, 'GET', '/livez');
        const readyz = await request(server.origin, 'GET', '/readyz');
        await sleep(2_200);
        await database.refuse(false);
        recoveries['refuse'] = await timeToService(base);
        expect(server.exits, server.output().slice(-3000)).toEqual([]);
        expect(livez.status).toBe(200);
        expect(readyz.status).toBe(503);
        expect(String(readyz.body)).toContain('not ready');
        expect((await request(server.origin, 'GET', '/readyz')).status).toBe(200);

        // 3. A long table lock: every statement on users waits, then times out.
        phase = 'lock';
        const release = await database.lockUsers();
        await sleep(300);
        const [burst, queued] = await Promise.all([
          Promise.all(Array.from({ length: 30 }, () => send('burst read', 'GET', `/Users/${hot.body.id}`))),
          Promise.all(Array.from({ length: 4 }, (_, i) => send('queued patch', 'PATCH', `/Users/${hot.body.id}`, patch({ op: 'replace', path: 'title', value: `hot ${i}` })))),
        ]);
        await sleep(2_500);
        await release();
        recoveries['lock'] = await timeToService(base);
        expect(burst.every((answer) => answer.status === 503), burst.map((a) => a.status).join(' ')).toBe(true);
        expect(queued.map((answer) => answer.status)).toEqual([503, 503, 503, 503]);

        // 4. A trigger fails one statement in the middle of a transaction (member rows written after the group row).
        phase = 'trigger';
        const poison = await send('setup', 'POST', '/Users', { schemas: [USER], userName: 'poison@example.com' });
        expect(poison.status).toBe(201);
        const holder = await send('setup', 'POST', '/Groups', { schemas: [GROUP], displayName: 'holder', members: [{ value: poison.body.id }] });
        expect(holder.status).toBe(201);
        const other = await send('setup', 'POST', '/Groups', { schemas: [GROUP], displayName: 'other' });
        const before = await send('read', 'GET', `/Groups/${other.body.id}`);
        const undo = await database.poison(poison.body.id);
        const refusedCreate = await send('poison create', 'POST', '/Groups', { schemas: [GROUP], displayName: 'poisoned', members: [{ value: poison.body.id }] });
        const refusedPatch = await send('poison patch', 'PATCH', `/Groups/${other.body.id}`, patch({ op: 'add', path: 'members', value: [{ value: poison.body.id }] }));
        const refusedDelete = await send('poison delete', 'DELETE', `/Users/${poison.body.id}`);
        for (const refused of [refusedCreate, refusedPatch, refusedDelete]) {
          expect(refused.status, JSON.stringify(refused.body)).toBe(500);
          expect(refused.body.schemas).toEqual([ERROR]);
        }
        expect((await send('read', 'GET', `/Groups?filter=${encodeURIComponent('displayName eq "poisoned"')}`)).body.totalResults).toBe(0);
        expect((await send('read', 'GET', `/Groups/${other.body.id}`)).body).toEqual(before.body);
        expect((await send('read', 'GET', `/Users/${poison.body.id}`)).status).toBe(200);
        expect((await send('read', 'GET', `/Groups/${holder.body.id}`)).body.members.map((m: { value: string }) => m.value)).toEqual([poison.body.id]);
        await undo();
        expect((await send('after trigger', 'DELETE', `/Users/${poison.body.id}`)).status).toBe(204);
        expect((await send('read', 'GET', `/Groups/${holder.body.id}`)).body.members ?? []).toEqual([]);

        phase = 'after';
        await sleep(800);
      } finally {
        stop = true;
        await Promise.all(workers);
      }

      expect(server.exits).toEqual([]);
      expect(server.output()).not.toMatch(/Unhandled|uncaught/i);

      expectBoundedAnswers(answers, BOUND_MS);
      for (const [fault, ms] of Object.entries(recoveries)) expect(ms, `recovery after ${fault}`).toBeLessThan(1_000);

      // Every acknowledged write is there; every refused one is either wholly there or wholly absent.
      expect(await writeProblems(base, groups, users)).toEqual([]);

      const count = (status: number) => answers.filter((a) => a.status === status).length;
      console.log(
        `sql store faults on ${name}: ${answers.length} requests (${count(503)} × 503, ${count(500)} × 500), ` +
          `slowest ${Math.round(Math.max(...answers.map((a) => a.ms)))} ms (bound ${BOUND_MS} ms), ` +
          `recovery ${Object.entries(recoveries).map(([k, v]) => `${k} ${Math.round(v)} ms`).join(', ')}, ` +
          `${users.flat().filter((u) => u.frozen).length} users with a refused write checked of ${users.flat().length}`,
      );
    }, 120_000);
  });
}
