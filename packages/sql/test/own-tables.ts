import { sql, type Kysely } from 'kysely';
import type { SqlDialectName, TableMapping } from '../src/index.js';

/** The mapping of the schema (users, teams, team_members), as examples/own-tables has it. */
export const ownTablesMapping: Record<string, TableMapping> = {
  User: {
    table: 'users',
    id: { column: 'id' },
    version: { column: 'updated_at', kind: 'timestamp' },
    created: 'created_at',
    attributes: {
      userName: 'email',
      'emails[type eq "work"].value': 'email',
      'name.givenName': 'first_name',
      'name.familyName': 'last_name',
      displayName: 'display_name',
      active: { column: 'is_active', default: true },
      externalId: 'external_ref',
      title: 'job_title',
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department': 'department',
    },
  },
  Group: {
    table: 'teams',
    id: { column: 'id' },
    version: { column: 'updated_at', kind: 'timestamp' },
    created: 'created_at',
    attributes: { displayName: 'name' },
    members: { table: 'team_members', group: 'team_id', member: 'user_id' },
  },
};

/** The application's own migration of that schema, per dialect. */
export async function createOwnTables(db: Kysely<any>, dialect: SqlDialectName): Promise<void> {
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
