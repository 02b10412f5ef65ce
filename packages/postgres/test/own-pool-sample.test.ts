import { fromPgPool } from '@scimkit/postgres';
import pg from 'pg';
import { expect, it } from 'vitest';

// The "Your own Pool" sample of docs/stores/postgres.md, as quoted there: bounded, and listened to
// (no connection is made: a pg Pool connects on first use).
it('an application pool with the documented bounds gets the connection-error listeners', async () => {
  const logged: unknown[] = [];
  const logger = { warn: (error: unknown) => void logged.push(error) };
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    max: 10,
    connectionTimeoutMillis: 5_000, // acquire timeout
    statement_timeout: 10_000,
    lock_timeout: 10_000,
    idle_in_transaction_session_timeout: 10_000,
    query_timeout: 12_000,
    keepAlive: true,
  });
  const client = fromPgPool(pool, { maxWaiting: 100, onConnectionError: (error) => logger.warn(error) });
  expect(typeof client.transaction).toBe('function');
  expect(pool.listenerCount('error')).toBe(1);
  expect(pool.listenerCount('connect')).toBe(1);
  const lost = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
  pool.emit('error', lost, undefined as never);
  expect(logged).toEqual([lost]);
  await pool.end();
});
