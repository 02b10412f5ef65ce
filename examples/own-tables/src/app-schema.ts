import { sql, type Kysely } from 'kysely';
import type { SqlDialectName } from '@scimkit/sql';

/**
 * The application's own migration: the tables exist before SCIM does (scimkit adds none). Exactly
 * the schema of docs/stores/own-tables.md, per dialect; created only when absent.
 */
export async function createAppSchema(db: Kysely<any>, dialect: SqlDialectName): Promise<void> {
  for (const statement of ddl(dialect)) await sql.raw(statement).execute(db);
}

function ddl(dialect: SqlDialectName): string[] {
  switch (dialect) {
    case 'postgres':
      return [
        `CREATE TABLE IF NOT EXISTS users (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), email text UNIQUE NOT NULL, first_name text, last_name text, display_name text,
          is_active boolean NOT NULL DEFAULT true, external_ref text, job_title text, department text, created_at timestamptz DEFAULT now(), updated_at timestamptz DEFAULT now())`,
        `CREATE TABLE IF NOT EXISTS teams (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text UNIQUE NOT NULL, created_at timestamptz, updated_at timestamptz)`,
        `CREATE TABLE IF NOT EXISTS team_members (team_id uuid REFERENCES teams ON DELETE CASCADE, user_id uuid REFERENCES users ON DELETE CASCADE, PRIMARY KEY (team_id, user_id))`,
      ];
    case 'mysql':
      return [
        `CREATE TABLE IF NOT EXISTS users (id CHAR(36) PRIMARY KEY, email VARCHAR(320) NOT NULL UNIQUE, first_name VARCHAR(255), last_name VARCHAR(255), display_name VARCHAR(255),
          is_active BOOLEAN NOT NULL DEFAULT TRUE, external_ref VARCHAR(255), job_title VARCHAR(255), department VARCHAR(255),
          created_at DATETIME(3) DEFAULT CURRENT_TIMESTAMP(3), updated_at DATETIME(3) DEFAULT CURRENT_TIMESTAMP(3)) CHARACTER SET utf8mb4`,
        `CREATE TABLE IF NOT EXISTS teams (id CHAR(36) PRIMARY KEY, name VARCHAR(255) NOT NULL UNIQUE, created_at DATETIME(3), updated_at DATETIME(3)) CHARACTER SET utf8mb4`,
        `CREATE TABLE IF NOT EXISTS team_members (team_id CHAR(36) NOT NULL, user_id CHAR(36) NOT NULL, PRIMARY KEY (team_id, user_id),
          FOREIGN KEY (team_id) REFERENCES teams (id) ON DELETE CASCADE, FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE) CHARACTER SET utf8mb4`,
      ];
    case 'sqlite':
      return [
        `CREATE TABLE IF NOT EXISTS users (id TEXT PRIMARY KEY, email TEXT UNIQUE NOT NULL, first_name TEXT, last_name TEXT, display_name TEXT,
          is_active INTEGER NOT NULL DEFAULT 1, external_ref TEXT, job_title TEXT, department TEXT,
          created_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), updated_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))`,
        `CREATE TABLE IF NOT EXISTS teams (id TEXT PRIMARY KEY, name TEXT UNIQUE NOT NULL, created_at TEXT, updated_at TEXT)`,
        `CREATE TABLE IF NOT EXISTS team_members (team_id TEXT REFERENCES teams (id) ON DELETE CASCADE, user_id TEXT REFERENCES users (id) ON DELETE CASCADE, PRIMARY KEY (team_id, user_id))`,
      ];
  }
}
