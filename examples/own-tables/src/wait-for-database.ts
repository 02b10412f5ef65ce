import { classifySqlError } from '@scimkit/sql';

/**
 * Runs `attempt` until it succeeds, retrying with capped exponential backoff and jitter while it
 * fails with a transient database error (`classifySqlError`: refused, lost, shutting down), for at
 * most `timeoutMs`; a failure that is not transient (a wrong password) rejects at once. Each retry is
 * logged as "waiting for the database …".
 */
export async function waitForDatabase<T>(attempt: () => Promise<T>, timeoutMs: number, log: (line: string) => void = (line) => console.warn(line)): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let delay = 250;
  for (let count = 1; ; count++) {
    try {
      return await attempt();
    } catch (error) {
      const transient = classifySqlError(error);
      const remaining = deadline - Date.now();
      if (transient === undefined || remaining <= 0) throw error;
      const pause = Math.min(remaining, delay / 2 + Math.random() * (delay / 2));
      log(`waiting for the database (attempt ${count}: ${transient.message}); retrying in ${Math.round(pause)} ms`);
      await new Promise((resolve) => setTimeout(resolve, pause));
      delay = Math.min(5_000, delay * 2);
    }
  }
}
