import { randomUUID } from 'node:crypto';
import pg from 'pg';

/**
 * A database of its own on the PostgreSQL server named by `admin` (default SCIMKIT_PG_URL, which
 * .ci/run sets when the server is reachable), created for one test file (or bench) and dropped after it.
 */
export async function serverDatabase(admin = process.env['SCIMKIT_PG_URL']): Promise<{ url: string; drop: () => Promise<void> }> {
  if (admin === undefined || admin === '') throw new Error('SCIMKIT_PG_URL is not set');
  const name = `scimkit_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const run = async (sql: string): Promise<void> => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
