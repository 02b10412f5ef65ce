import type { PGliteLike } from '../src/index.js';

/** What a lost connection looks like (pg's message; the store answers it 503 in every dialect). */
const lost = () => new Error('Connection terminated unexpectedly');

/** Counts backend steps (statements, BEGIN, COMMIT) and fails the n-th one after `failAt(n)`, as a lost connection does. */
export class StepFaults {
  private countdown: number | undefined;
  failAt(step: number): void {
    this.countdown = step;
  }
  heal(): void {
    this.countdown = undefined;
  }
  /** Whether this step is the one to fail (counts it). */
  fails(): boolean {
    if (this.countdown !== undefined && --this.countdown === 0) {
      this.countdown = undefined;
      return true;
    }
    return false;
  }
}

/**
 * A better-sqlite3 database whose statements (BEGIN and COMMIT included: Kysely runs them too)
 * fail one at a time, each run of a statement a step (a prepared statement is kept and run again):
 * the conformance kit's `faults` for the mapped store on SQLite, so that the store's own
 * transactions are what keeps a refused write from being half-applied.
 */
export function faultySqlite<D extends object>(database: D, faults: StepFaults): D {
  return new Proxy(database, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (key === 'prepare') {
        return (source: string) => faultyStatement((value as (source: string) => object).call(target, source), faults);
      }
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** A PGlite whose statements (BEGIN and COMMIT included) fail one at a time. */
export function faultyPGlite(pglite: PGliteLike, faults: StepFaults): PGliteLike {
  return { query: (text, params) => (faults.fails() ? Promise.reject(lost()) : pglite.query(text, params)) };
}

/** A better-sqlite3 Statement whose runs (`run`, `all`, `get`, `iterate`) are steps of `faults`. */
function faultyStatement(statement: object, faults: StepFaults): object {
  return new Proxy(statement, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (key === 'run' || key === 'all' || key === 'get' || key === 'iterate') {
        return (...args: unknown[]) => {
          if (faults.fails()) throw lost();
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (value as (...args: unknown[]) => unknown).bind(target);
    },
  });
}
