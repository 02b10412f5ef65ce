import { EventEmitter } from 'node:events';
import { isStoreUnavailable, StoreUnavailableError } from '@scimkit/core';
import { classifyError, fromPgPool, waitForDatabase, type PgPoolClientLike, type PgPoolLike } from '@scimkit/postgres';
import { describe, expect, it } from 'vitest';

const pgError = (message: string, code?: string): Error => Object.assign(new Error(message), code === undefined ? {} : { code });

/** A connection that answers every statement with `answer`, records them, and can emit 'error' like pg's Client. */
class FakeConnection extends EventEmitter implements PgPoolClientLike {
  readonly statements: string[] = [];
  released: (Error | boolean | undefined)[] = [];
  constructor(private readonly answer: (text: string) => Promise<{ rows: unknown[] }>) {
    super();
  }
  query(text: string): Promise<{ rows: unknown[] }> {
    this.statements.push(text);
    return this.answer(text);
  }
  release(error?: Error | boolean): void {
    this.released.push(error);
  }
}

class FakePool extends EventEmitter implements PgPoolLike {
  waitingCount = 0;
  readonly connections: FakeConnection[] = [];
  constructor(private readonly answer: (text: string, connection: FakeConnection) => Promise<{ rows: unknown[] }> = async () => ({ rows: [] })) {
    super();
  }
  query(text: string): Promise<{ rows: unknown[] }> {
    return this.answer(text, new FakeConnection(async () => ({ rows: [] })));
  }
  async connect(): Promise<FakeConnection> {
    const connection: FakeConnection = new FakeConnection((text) => this.answer(text, connection));
    this.connections.push(connection);
    return connection;
  }
}

describe('fromPgPool under connection faults', () => {
  it("listens for the pool's 'error' event (an idle connection the server closed), so it cannot end the process", () => {
    const pool = new FakePool();
    const seen: Error[] = [];
    fromPgPool(pool, { onConnectionError: (error) => void seen.push(error) });
    expect(pool.listenerCount('error')).toBe(1);
    const error = pgError('terminating connection due to administrator command', '57P01');
    expect(() => pool.emit('error', error)).not.toThrow();
    expect(seen).toEqual([error]);
  });

  it('a connection that breaks inside a transaction is destroyed, the transaction rejects as unavailable, and the next one gets a fresh connection', async () => {
    const lost = pgError('Connection terminated unexpectedly');
    const pool = new FakePool(async (text, connection) => {
      if (text === 'SELECT 1' && pool.connections.length === 1) {
        // pg emits 'error' on the Client and rejects the running query.
        connection.emit('error', lost);
        throw lost;
      }
      return { rows: [{ ok: true }] };
    });
    const client = fromPgPool(pool);
    const failed = await client.transaction((tx) => tx.query('SELECT 1')).catch((error: unknown) => error);
    expect(isStoreUnavailable(failed)).toBe(true);
    expect((failed as StoreUnavailableError).message).toBe('the database connection was lost');
    expect((failed as Error).cause).toBe(lost);
    const [first] = pool.connections;
    expect(first?.released).toEqual([lost]);
    expect(first?.statements).toEqual(['BEGIN', 'SELECT 1']); // no ROLLBACK on a dead connection
    expect(first?.listenerCount('error')).toBe(0);
    expect(await client.transaction((tx) => tx.query('SELECT 1'))).toEqual({ rows: [{ ok: true }] });
    expect(pool.connections[1]?.released).toEqual([undefined]);
  });

  it("an 'error' event between statements fails the transaction's next statement and destroys the connection", async () => {
    const pool = new FakePool();
    const client = fromPgPool(pool);
    const lost = pgError('Connection terminated unexpectedly');
    const failed = await client
      .transaction(async (tx) => {
        await tx.query('SELECT 1');
        pool.connections[0]?.emit('error', lost);
        await tx.query('SELECT 2');
      })
      .catch((error: unknown) => error);
    expect(isStoreUnavailable(failed)).toBe(true);
    expect(pool.connections[0]?.statements).toEqual(['BEGIN', 'SELECT 1']);
    expect(pool.connections[0]?.released).toEqual([lost]);
  });

  it('a failure that is not transient rolls back, returns the connection and passes through unchanged (500)', async () => {
    const bug = pgError('syntax error at or near "SELEC"', '42601');
    const pool = new FakePool(async (text) => {
      if (text === 'SELEC') throw bug;
      return { rows: [] };
    });
    const failed = await fromPgPool(pool).transaction((tx) => tx.query('SELEC')).catch((error: unknown) => error);
    expect(failed).toBe(bug);
    expect(pool.connections[0]?.statements).toEqual(['BEGIN', 'SELEC', 'ROLLBACK']);
    expect(pool.connections[0]?.released).toEqual([undefined]);
  });

  it('reruns a transaction after a serialization failure or deadlock, and answers unavailable when they persist', async () => {
    let conflicts = 2;
    const pool = new FakePool(async (text) => {
      if (text === 'UPDATE' && conflicts-- > 0) throw pgError('deadlock detected', '40P01');
      return { rows: [{ n: 1 }] };
    });
    expect(await fromPgPool(pool).transaction((tx) => tx.query('UPDATE'))).toEqual({ rows: [{ n: 1 }] });
    expect(pool.connections).toHaveLength(3);
    conflicts = 10;
    const failed = await fromPgPool(pool, { transactionAttempts: 2 }).transaction((tx) => tx.query('UPDATE')).catch((error: unknown) => error);
    expect(isStoreUnavailable(failed)).toBe(true);
    expect((failed as Error).message).toContain('serialization failure or deadlock');
  });

  it('refuses at once when too many calls already wait for a connection', async () => {
    const pool = new FakePool();
    pool.waitingCount = 5;
    const client = fromPgPool(pool, { maxWaiting: 5 });
    for (const call of [() => client.query('SELECT 1'), () => client.transaction((tx) => tx.query('SELECT 1'))]) {
      const failed = await call().catch((error: unknown) => error);
      expect(isStoreUnavailable(failed)).toBe(true);
      expect((failed as Error).message).toBe('too many requests are waiting for a database connection');
    }
    expect(pool.connections).toHaveLength(0);
    pool.waitingCount = 4;
    await expect(client.query('SELECT 1')).resolves.toEqual({ rows: [] });
  });

  it('classifies an acquire timeout, a refused connection and a single statement failure', async () => {
    const refused = Object.assign(new AggregateError([], ''), { code: 'ECONNREFUSED' });
    for (const [error, detail] of [
      [new Error('timeout exceeded when trying to connect'), 'no database connection came free in time'],
      [refused, 'the database refused or did not accept a connection'],
      [pgError('canceling statement due to statement timeout', '57014'), 'a database statement took longer than the statement timeout'],
      [pgError('canceling statement due to lock timeout', '55P03'), 'data the request needs stayed locked longer than the lock timeout'],
      [pgError('sorry, too many clients already', '53300'), 'the database has too many connections'],
      [pgError('the database system is shutting down', '57P03'), 'the database is shutting down or restarting'],
      [pgError('connection failure', '08006'), 'the database connection was lost'],
      [pgError('database "x" is not currently accepting connections', '55000'), 'the database refused or did not accept a connection'],
    ] as const) {
      const pool = new FakePool(async () => Promise.reject(error));
      const failed = await fromPgPool(pool).query('SELECT 1').catch((e: unknown) => e);
      expect(isStoreUnavailable(failed), detail).toBe(true);
      expect((failed as Error).message).toBe(detail);
    }
    for (const bug of [pgError('duplicate key', '23505'), pgError('password authentication failed', '28P01'), new TypeError('x is undefined')]) {
      expect(classifyError(bug)).toBeUndefined();
    }
  });
});

describe('waitForDatabase', () => {
  it('retries transient failures with backoff until the database answers', async () => {
    let calls = 0;
    const delays: number[] = [];
    const result = await waitForDatabase(
      async () => {
        if (++calls < 4) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        return 'migrated';
      },
      { initialDelayMs: 10, maxDelayMs: 40, onRetry: ({ delayMs }) => void delays.push(delayMs) },
    );
    expect(result).toBe('migrated');
    expect(calls).toBe(4);
    expect(delays).toHaveLength(3);
    expect(delays.every((delay) => delay <= 40)).toBe(true);
  });

  it('gives up at the deadline, and at once for a failure that is not transient', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const started = Date.now();
    await expect(waitForDatabase(() => Promise.reject(refused), { timeoutMs: 150, initialDelayMs: 20 })).rejects.toBe(refused);
    expect(Date.now() - started).toBeLessThan(1_000);
    let calls = 0;
    const wrong = Object.assign(new Error('password authentication failed'), { code: '28P01' });
    await expect(waitForDatabase(() => (calls++, Promise.reject(wrong)), { timeoutMs: 10_000 })).rejects.toBe(wrong);
    expect(calls).toBe(1);
  });
});
