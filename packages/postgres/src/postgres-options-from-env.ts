import type { OpenStoreOptions } from './open-postgres-store.js';

/**
 * {@link openPostgresStore}'s bounds from the environment (docs/stores/postgres.md, "Timeouts and
 * failures"), each in milliseconds and optional: `SCIMKIT_PG_STATEMENT_TIMEOUT_MS`,
 * `SCIMKIT_PG_ACQUIRE_TIMEOUT_MS`, `SCIMKIT_PG_LOCK_TIMEOUT_MS`, `SCIMKIT_PG_STARTUP_TIMEOUT_MS` (how
 * long start-up waits for the database) and `SCIMKIT_PG_POOL_SIZE`. A value that is not a whole
 * number is refused (a TypeError), so that a typo does not silently fall back to a default. Every
 * start-up retry is told to `log` ("waiting for the database …"; default `console.warn`).
 *
 * ```ts
 * const opened = await openPostgresStore(process.env['DATABASE_URL'], postgresOptionsFromEnv());
 * ```
 */
export function postgresOptionsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env, log: (line: string) => void = (line) => console.warn(line)): OpenStoreOptions {
  const number = (name: string): number | undefined => {
    const text = env[name];
    if (text === undefined || text === '') return undefined;
    if (!/^\d+$/.test(text)) throw new TypeError(`${name} must be a whole number, not '${text}'`);
    return Number(text);
  };
  const statementTimeoutMs = number('SCIMKIT_PG_STATEMENT_TIMEOUT_MS');
  const acquireTimeoutMs = number('SCIMKIT_PG_ACQUIRE_TIMEOUT_MS');
  const lockTimeoutMs = number('SCIMKIT_PG_LOCK_TIMEOUT_MS');
  const poolSize = number('SCIMKIT_PG_POOL_SIZE');
  const startupTimeoutMs = number('SCIMKIT_PG_STARTUP_TIMEOUT_MS');
  return {
    ...(statementTimeoutMs === undefined ? {} : { statementTimeoutMs }),
    ...(acquireTimeoutMs === undefined ? {} : { acquireTimeoutMs }),
    ...(lockTimeoutMs === undefined ? {} : { lockTimeoutMs }),
    ...(poolSize === undefined ? {} : { poolSize }),
    startup: {
      ...(startupTimeoutMs === undefined ? {} : { timeoutMs: startupTimeoutMs }),
      onRetry: ({ attempt, delayMs, error }) => log(`waiting for the database (attempt ${attempt}: ${error.message}); retrying in ${delayMs} ms`),
    },
  };
}
