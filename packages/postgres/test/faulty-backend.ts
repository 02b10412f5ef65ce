import type { PgPoolClientLike, PgPoolLike, PGliteLike } from '@scimkit/postgres';

/** The error PostgreSQL sends when it terminates a connection (a failover, `pg_terminate_backend`). */
export function terminated(): Error {
  return Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
}

/** Counts backend steps (statements) and fails the n-th one after `failAt(n)`, as a lost connection would. */
export class StepFaults {
  private countdown: number | undefined;
  failAt(step: number): void {
    this.countdown = step;
  }
  heal(): void {
    this.countdown = undefined;
  }
  /** Runs one step, or throws if it is the one to fail. */
  step<T>(run: () => Promise<T>): Promise<T> {
    if (this.countdown !== undefined && --this.countdown === 0) {
      this.countdown = undefined;
      return Promise.reject(terminated());
    }
    return run();
  }
}

/** A PGlite whose statements (in and out of transactions) can fail one at a time. */
export function faultyPGlite(db: PGliteLike, faults: StepFaults): PGliteLike {
  return {
    query: (text, params) => faults.step(() => db.query(text, params)),
    transaction: (work) => db.transaction((tx) => work({ query: (text, params) => faults.step(() => tx.query(text, params)) })),
  };
}

/** A `pg` Pool whose statements (BEGIN and COMMIT included) can fail one at a time. */
export function faultyPgPool(pool: PgPoolLike, faults: StepFaults): PgPoolLike {
  return {
    query: (text, params) => faults.step(() => pool.query(text, params)),
    connect: async () => {
      const connection = await pool.connect();
      const wrapped: PgPoolClientLike = {
        query: (text, params) => faults.step(() => connection.query(text, params)),
        release: (error) => connection.release(error),
      };
      return wrapped;
    },
  };
}
