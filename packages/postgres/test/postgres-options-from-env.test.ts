import { describe, expect, it } from 'vitest';
import { postgresOptionsFromEnv } from '../src/index.js';

describe('postgresOptionsFromEnv', () => {
  it('reads each bound in milliseconds, and leaves unset ones to the defaults', () => {
    const options = postgresOptionsFromEnv({ SCIMKIT_PG_STATEMENT_TIMEOUT_MS: '1500', SCIMKIT_PG_ACQUIRE_TIMEOUT_MS: '1000', SCIMKIT_PG_POOL_SIZE: '4', SCIMKIT_PG_LOCK_TIMEOUT_MS: '' });
    expect(options).toMatchObject({ statementTimeoutMs: 1500, acquireTimeoutMs: 1000, poolSize: 4 });
    expect(options.lockTimeoutMs).toBeUndefined();
    expect(options.startup?.timeoutMs).toBeUndefined();
    expect(postgresOptionsFromEnv({ SCIMKIT_PG_STARTUP_TIMEOUT_MS: '0' }).startup?.timeoutMs).toBe(0);
  });

  it('refuses a value that is not a whole number, naming the variable', () => {
    expect(() => postgresOptionsFromEnv({ SCIMKIT_PG_STATEMENT_TIMEOUT_MS: '10s' })).toThrow(/SCIMKIT_PG_STATEMENT_TIMEOUT_MS must be a whole number, not '10s'/);
    expect(() => postgresOptionsFromEnv({ SCIMKIT_PG_POOL_SIZE: '-1' })).toThrow(TypeError);
  });

  it('tells every start-up retry to the log', () => {
    const lines: string[] = [];
    const options = postgresOptionsFromEnv({}, (line) => lines.push(line));
    options.startup?.onRetry?.({ attempt: 2, delayMs: 500, error: new Error('the database refused or did not accept a connection') });
    expect(lines).toEqual(['waiting for the database (attempt 2: the database refused or did not accept a connection); retrying in 500 ms']);
  });
});
