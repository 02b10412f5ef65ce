import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { expectBoundedAnswers, timeToService, writeProblems, type Recorded, type TrackedUser, type UserState } from './fault-checks.js';
import { BOUNDS, launchFaultServer, request, startFaultServer, type Answer, type FaultServer } from './fault-server.js';
import { serverDatabase } from './server-database.js';

/*
 * The fault-injection suite of issue 18 (docs/operations/database-failures.md): the full reference
 * server as a child process on a database of its own, under a bounded mixed load (creates, PATCHes,
 * member changes, deletes), while the database terminates its connections, refuses connections,
 * holds a table lock, and fails one statement mid-transaction through a trigger. The process must
 * never exit, every request must get an HTTP answer within the bound (503 with Retry-After for
 * transient failures), and afterwards every acknowledged write is there and no refused one is half-applied.
 */

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
/** A request waits at most for a connection, then one statement, plus this margin. */
const MARGIN_MS = 1_000;
const BOUND_MS = BOUNDS.acquireTimeoutMs + BOUNDS.statementTimeoutMs + MARGIN_MS;
const WORKERS = 8;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const patch = (...operations: unknown[]) => ({ schemas: [PATCH_OP], Operations: operations });

class Admin {
  constructor(
    private readonly adminUrl: string,
    readonly database: string,
    readonly url: string,
  ) {}

  async run(sql: string, params: unknown[] = [], url = this.adminUrl): Promise<pg.QueryResult> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await client.query(sql, params);
    } finally {
      await client.end();
    }
  }

  /** Terminates the backends of this suite's database only. */
  terminate(): Promise<pg.QueryResult> {
    return this.run('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [this.database]);
  }

  allowConnections(allow: boolean): Promise<pg.QueryResult> {
    return this.run(`ALTER DATABASE ${this.database} ALLOW_CONNECTIONS ${allow}`);
  }
}

async function openAdmin(): Promise<{ admin: Admin; drop: () => Promise<void> }> {
  const adminUrl = process.env['SCIMKIT_PG_URL'] as string;
  const database = await serverDatabase(adminUrl);
  const name = new URL(database.url).pathname.slice(1);
  const admin = new Admin(adminUrl, name, database.url);
  return {
    admin,
    drop: async () => {
      await admin.allowConnections(true).catch(() => undefined);
      await database.drop();
    },
  };
}

function rssOf(pid: number | undefined): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
}, 60_000);

describe('database faults under load (full server, PostgreSQL)', () => {
  it('never exits, answers every request within the bound, loses no acknowledged write and half-applies no refused one', async () => {
    const { admin, drop } = await openAdmin();
    cleanups.push(drop);
    const server: FaultServer = await startFaultServer(admin.url);
    cleanups.push(() => server.stop());
    const base = server.baseUrl;

    let phase = 'warm-up';
    const answers: Recorded[] = [];
    const send = async (what: string, method: string, path: string, body?: unknown): Promise<Answer> => {
      const answer = await request(base, method, path, body, BOUND_MS + 10_000);
      answers.push({ ...answer, phase, what });
      return answer;
    };

    // One group per worker, created before any fault.
    const groups: string[] = [];
    for (let w = 0; w < WORKERS; w++) {
      const created = await send('setup', 'POST', '/Groups', { schemas: [GROUP], displayName: `crew-${w}` });
      expect(created.status).toBe(201);
      groups.push(created.body.id);
    }

    // One user many writers PATCH at once during the stall (queued behind each other in the server).
    const hot = await send('setup', 'POST', '/Users', { schemas: [USER], userName: 'hot' });
    expect(hot.status).toBe(201);

    const users: TrackedUser[][] = Array.from({ length: WORKERS }, () => []);
    let stop = false;
    let serial = 0;

    async function step(w: number): Promise<void> {
      const mine = users[w] as TrackedUser[];
      const live = mine.filter((u) => !u.frozen && u.id !== undefined && u.states[0]?.exists === true);
      const roll = Math.random();
      if (live.length < 3 || roll < 0.2) {
        const tracked: TrackedUser = { userName: `w${w}-u${++serial}`, states: [], frozen: false, createUncertain: false };
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
        const operation = now.member
          ? { op: 'remove', path: `members[value eq "${target.id}"]` }
          : { op: 'add', path: 'members', value: [{ value: target.id }] };
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

    const rss: number[] = [rssOf(server.child.pid)];
    const recoveries: Record<string, number> = {};
    try {
      await sleep(1_500);

      // 1. Connections terminated repeatedly (a failover, idle_session_timeout, a proxy restart).
      phase = 'terminate';
      for (let i = 0; i < 12; i++) {
        await admin.terminate();
        await sleep(250);
      }
      recoveries['terminate'] = await timeToService(base);

      // 2. Connections refused for several seconds.
      phase = 'refuse';
      await admin.allowConnections(false);
      await admin.terminate();
      await sleep(1_000);
      const livez = await request(server.origin, 'GET', '/livez');
      const readyz = await request(server.origin, 'GET', '/readyz');
      await sleep(3_000);
      await admin.allowConnections(true);
      recoveries['refuse'] = await timeToService(base);
      expect(server.exits, server.output().slice(-3000)).toEqual([]);
      expect(livez.status, String(livez.body)).toBe(200);
      expect(readyz.status).toBe(503);
      expect(String(readyz.body)).toContain('not ready');
      expect((await request(server.origin, 'GET', '/readyz')).status).toBe(200);

      // 3. A long table lock: every statement on the resources waits, then times out.
      phase = 'lock';
      const locker = new pg.Client({ connectionString: admin.url });
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE scim_resources IN ACCESS EXCLUSIVE MODE');
      await sleep(500);
      // A burst far beyond the pool: the waiting queue is bounded, the rest is refused at once.
      const [burst, queued] = await Promise.all([
        Promise.all(Array.from({ length: 80 }, () => send('burst read', 'GET', `/Groups/${groups[0]}`))),
        Promise.all(Array.from({ length: 6 }, (_, i) => send('queued patch', 'PATCH', `/Users/${hot.body.id}`, patch({ op: 'replace', path: 'title', value: `hot ${i}` })))),
      ]);
      rss.push(rssOf(server.child.pid));
      await sleep(3_000);
      rss.push(rssOf(server.child.pid));
      await locker.query('ROLLBACK');
      await locker.end();
      recoveries['lock'] = await timeToService(base);
      expect(burst.every((answer) => answer.status === 503)).toBe(true);
      expect(queued.map((answer) => answer.status)).toEqual([503, 503, 503, 503, 503, 503]);
      expect(burst.filter((answer) => answer.ms < 500).length).toBeGreaterThan(0);

      // 4. A trigger fails one statement in the middle of a transaction (the member rows are written after the resource row).
      phase = 'trigger';
      const poison = await send('setup', 'POST', '/Users', { schemas: [USER], userName: 'poison' });
      expect(poison.status).toBe(201);
      const holder = await send('setup', 'POST', '/Groups', { schemas: [GROUP], displayName: 'holder', members: [{ value: poison.body.id }] });
      expect(holder.status).toBe(201);
      const other = await send('setup', 'POST', '/Groups', { schemas: [GROUP], displayName: 'other' });
      const before = await send('read', 'GET', `/Groups/${other.body.id}`);
      await admin.run(
        `CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF coalesce(NEW.member_id, OLD.member_id) = '${poison.body.id}' THEN RAISE EXCEPTION 'injected failure'; END IF;
           RETURN coalesce(NEW, OLD);
         END $$;
         CREATE TRIGGER refuse_poison BEFORE INSERT OR DELETE ON scim_group_members FOR EACH ROW EXECUTE FUNCTION refuse_poison();`,
        [],
        admin.url,
      );
      const refusedCreate = await send('poison create', 'POST', '/Groups', { schemas: [GROUP], displayName: 'poisoned', members: [{ value: poison.body.id }] });
      const refusedPatch = await send('poison patch', 'PATCH', `/Groups/${other.body.id}`, patch({ op: 'add', path: 'members', value: [{ value: poison.body.id }] }));
      const refusedDelete = await send('poison delete', 'DELETE', `/Users/${poison.body.id}`);
      for (const refused of [refusedCreate, refusedPatch, refusedDelete]) {
        expect(refused.status).toBe(500);
        expect(refused.body.schemas).toEqual([ERROR]);
      }
      expect((await send('read', 'GET', `/Groups?filter=${encodeURIComponent('displayName eq "poisoned"')}`)).body.totalResults).toBe(0);
      expect((await send('read', 'GET', `/Groups/${other.body.id}`)).body).toEqual(before.body);
      const poisonNow = await send('read', 'GET', `/Users/${poison.body.id}`);
      expect(poisonNow.status).toBe(200);
      expect(poisonNow.body.groups?.map((g: { value: string }) => g.value)).toEqual([holder.body.id]);
      expect((await send('read', 'GET', `/Groups/${holder.body.id}`)).body.members.map((m: { value: string }) => m.value)).toEqual([poison.body.id]);
      await admin.run('DROP TRIGGER refuse_poison ON scim_group_members; DROP FUNCTION refuse_poison();', [], admin.url);
      expect((await send('after trigger', 'DELETE', `/Users/${poison.body.id}`)).status).toBe(204);
      expect((await send('read', 'GET', `/Groups/${holder.body.id}`)).body.members).toBeUndefined();

      phase = 'after';
      await sleep(1_000);
    } finally {
      stop = true;
      await Promise.all(workers);
    }

    // The process never exited, and never reported an unhandled error.
    expect(server.exits).toEqual([]);
    expect(server.output()).not.toMatch(/Unhandled|uncaught/i);

    // Every request got an HTTP answer within the bound; every failure is a SCIM error; transient ones are 503 + Retry-After.
    expectBoundedAnswers(answers, BOUND_MS);

    // Service back within a second of the database.
    for (const [fault, ms] of Object.entries(recoveries)) expect(ms, `recovery after ${fault}`).toBeLessThan(1_000);
    // Memory stays bounded during the stall.
    expect(Math.max(...rss) - (rss[0] ?? 0)).toBeLessThan(150 * 1024 * 1024);

    // Every acknowledged write is there; every refused one is either wholly there or wholly absent.
    expect(await writeProblems(base, groups, users)).toEqual([]);

    const count = (status: number) => answers.filter((a) => a.status === status).length;
    console.log(
      `database faults: ${answers.length} requests (${count(503)} × 503, ${count(500)} × 500), ` +
        `slowest ${Math.round(Math.max(...answers.map((a) => a.ms)))} ms (bound ${BOUND_MS} ms), ` +
        `recovery ${Object.entries(recoveries).map(([k, v]) => `${k} ${Math.round(v)} ms`).join(', ')}, ` +
        `rss +${Math.round((Math.max(...rss) - (rss[0] ?? 0)) / 1048576)} MB, ` +
        `${users.flat().filter((u) => u.frozen).length} users with a refused write checked of ${users.flat().length}`,
    );
  }, 120_000);

  it('start-up waits for a database that refuses connections, and two instances migrate it once', async () => {
    const { admin, drop } = await openAdmin();
    cleanups.push(drop);
    await admin.allowConnections(false);
    const launched = [launchFaultServer(admin.url), launchFaultServer(admin.url)];
    cleanups.push(async () => {
      for (const one of launched) one.child.kill('SIGKILL');
    });
    // Both try, are refused, and keep waiting instead of exiting.
    const deadline = Date.now() + 30_000;
    while (!launched.every((one) => one.output().includes('waiting for the database')) && Date.now() < deadline) await sleep(100);
    await sleep(1_000);
    for (const one of launched) {
      expect(one.output()).toContain('waiting for the database');
      expect(one.output()).not.toContain('listening at');
      expect(one.exits).toEqual([]);
    }
    await admin.allowConnections(true);
    const servers = await Promise.all(launched.map((one) => one.listening));
    for (const server of servers) {
      expect(server.exits).toEqual([]);
      expect((await request(server.origin, 'GET', '/readyz')).status).toBe(200);
      expect((await request(server.origin, 'GET', '/livez')).status).toBe(200);
    }
    // Each version applied exactly once (the primary key would refuse a second), with none missing.
    const versions = await admin.run('SELECT version FROM scim_migrations ORDER BY version', [], admin.url);
    expect(versions.rows.map((row) => row.version)).toEqual(Array.from({ length: versions.rows.length }, (_, i) => i + 1));
    expect(versions.rows.length).toBeGreaterThanOrEqual(2);
    const created = await request(servers[0]!.baseUrl, 'POST', '/Users', { schemas: [USER], userName: 'after-outage' });
    expect(created.status).toBe(201);
    expect((await request(servers[1]!.baseUrl, 'GET', `/Users/${created.body.id}`)).status).toBe(200);
  }, 60_000);
});
