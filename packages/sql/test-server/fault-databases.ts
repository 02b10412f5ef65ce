import { randomUUID } from 'node:crypto';
import { createConnection, type Connection } from 'mysql2';
import pg from 'pg';
import { serverDatabase } from '../../postgres/test-server/server-database.js';

/**
 * A database of its own on one of the servers, for the mapped store's fault suite, and the faults
 * the suite injects into it: connections terminated, connections refused, a long lock, a trigger
 * failing one statement of a transaction.
 */
export interface FaultDatabase {
  readonly name: string;
  /** What the own-tables example connects to (SCIMKIT_STORE). */
  readonly url: string;
  /** Ends every connection the example holds. */
  terminate(): Promise<void>;
  /** Refuses new connections of the example (and ends the ones it holds), or accepts them again. */
  refuse(refused: boolean): Promise<void>;
  /** Holds a lock every statement on `users` waits for, until the returned release. */
  lockUsers(): Promise<() => Promise<void>>;
  /** A trigger that fails any insert or delete of `team_members` naming `userId`; undone by the returned function. */
  poison(userId: string): Promise<() => Promise<void>>;
  drop(): Promise<void>;
}

const tag = () => randomUUID().replace(/-/g, '').slice(0, 10);

export async function postgresFaultDatabase(admin: string): Promise<FaultDatabase> {
  const database = await serverDatabase(admin);
  const name = new URL(database.url).pathname.slice(1);
  const run = async (text: string, params: unknown[] = [], url = admin): Promise<void> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(text, params);
    } finally {
      await client.end();
    }
  };
  const terminate = () => run('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
  return {
    name,
    url: database.url,
    terminate,
    async refuse(refused) {
      await run(`ALTER DATABASE ${name} ALLOW_CONNECTIONS ${!refused}`);
      if (refused) await terminate();
    },
    async lockUsers() {
      const locker = new pg.Client({ connectionString: database.url });
      await locker.connect();
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE users IN ACCESS EXCLUSIVE MODE');
      return async () => {
        await locker.query('ROLLBACK');
        await locker.end();
      };
    },
    async poison(userId) {
      await run(
        `CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF coalesce(NEW.user_id, OLD.user_id)::text = '${userId}' THEN RAISE EXCEPTION 'injected failure'; END IF;
           RETURN coalesce(NEW, OLD);
         END $$;
         CREATE TRIGGER refuse_poison BEFORE INSERT OR DELETE ON team_members FOR EACH ROW EXECUTE FUNCTION refuse_poison();`,
        [],
        database.url,
      );
      return () => run('DROP TRIGGER refuse_poison ON team_members; DROP FUNCTION refuse_poison();', [], database.url);
    },
    async drop() {
      await run(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => undefined);
      await database.drop();
    },
  };
}

/**
 * On MariaDB/MySQL the example connects as a user of its own, so that its connections can be told
 * apart (KILL) and refused (`MAX_USER_CONNECTIONS 1` while the suite holds that one connection:
 * the server answers ER_TOO_MANY_USER_CONNECTIONS). The user and the database are dropped after.
 */
export async function mysqlFaultDatabase(admin: string): Promise<FaultDatabase> {
  const id = tag();
  const name = `scimkit_faults_${id}`;
  const user = `scimkit_f_${id}`;
  const password = randomUUID();
  const connect = (url: string): Promise<Connection> =>
    new Promise((resolve, reject) => {
      const connection = createConnection({ uri: url, multipleStatements: false });
      connection.connect((error) => (error ? reject(error) : resolve(connection)));
      connection.on('error', () => undefined);
    });
  const query = (connection: Connection, text: string): Promise<any> => new Promise((resolve, reject) => connection.query(text, (error, rows) => (error ? reject(error) : resolve(rows))));
  const close = (connection: Connection): Promise<void> => new Promise((resolve) => connection.end(() => resolve()));
  const run = async (...texts: string[]): Promise<void> => {
    const connection = await connect(admin);
    try {
      for (const text of texts) await query(connection, text);
    } finally {
      await close(connection);
    }
  };
  await run(`CREATE DATABASE ${name} CHARACTER SET utf8mb4`, `CREATE USER '${user}'@'%' IDENTIFIED BY '${password}'`, `GRANT ALL ON ${name}.* TO '${user}'@'%'`);
  const url = new URL(admin);
  url.username = user;
  url.password = password;
  url.pathname = `/${name}`;
  const own = url.toString();
  const terminate = async (): Promise<void> => {
    const connection = await connect(admin);
    try {
      const rows: { ID: number }[] = await query(connection, `SELECT ID FROM information_schema.PROCESSLIST WHERE USER = '${user}'`);
      for (const row of rows) await query(connection, `KILL CONNECTION ${Number(row.ID)}`).catch(() => undefined);
    } finally {
      await close(connection);
    }
  };
  let held: Connection | undefined;
  return {
    name,
    url: own,
    terminate,
    async refuse(refused) {
      if (refused) {
        await run(`GRANT USAGE ON *.* TO '${user}'@'%' WITH MAX_USER_CONNECTIONS 1`);
        // End the example's connections and take the one allowed connection before it takes it again.
        for (let attempt = 1; held === undefined; attempt++) {
          await terminate();
          held = await connect(own).catch((error: unknown) => {
            if (attempt >= 50) throw error;
            return undefined;
          });
        }
      } else {
        await run(`GRANT USAGE ON *.* TO '${user}'@'%' WITH MAX_USER_CONNECTIONS 0`);
        if (held !== undefined) await close(held);
        held = undefined;
      }
    },
    async lockUsers() {
      const locker = await connect(admin);
      await query(locker, `LOCK TABLES ${name}.users WRITE`);
      return async () => {
        await query(locker, 'UNLOCK TABLES');
        await close(locker);
      };
    },
    async poison(userId) {
      const signal = `BEGIN IF %s = '${userId}' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'injected failure'; END IF; END`;
      await run(
        `CREATE TRIGGER ${name}.refuse_poison_i BEFORE INSERT ON ${name}.team_members FOR EACH ROW ${signal.replace('%s', 'NEW.user_id')}`,
        `CREATE TRIGGER ${name}.refuse_poison_d BEFORE DELETE ON ${name}.team_members FOR EACH ROW ${signal.replace('%s', 'OLD.user_id')}`,
      );
      return () => run(`DROP TRIGGER ${name}.refuse_poison_i`, `DROP TRIGGER ${name}.refuse_poison_d`);
    },
    async drop() {
      if (held !== undefined) await close(held);
      await run(`DROP DATABASE IF EXISTS ${name}`, `DROP USER IF EXISTS '${user}'@'%'`);
    },
  };
}
