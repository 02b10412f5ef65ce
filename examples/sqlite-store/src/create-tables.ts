import type { Database } from 'sql.js';

/**
 * One row per resource. The JSON column is the resource exactly as the core handed it over; the
 * other columns are copies the database can index and constrain:
 * - `user_name` holds `userName` lowercased, so the unique index enforces "unique ignoring case"
 *   (the User schema's `uniqueness: server`, `caseExact: false`) atomically, inside the database;
 * - `version` is `meta.version`, the compare-and-swap token of `replace` and `delete`;
 * - `external_id` is there to answer `externalId eq "…"`, the lookup identity providers do most.
 */
export function createTables(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS scim_resources (
      resource_type TEXT NOT NULL,
      id            TEXT NOT NULL,
      user_name     TEXT,
      external_id   TEXT,
      version       TEXT NOT NULL,
      data          TEXT NOT NULL,
      PRIMARY KEY (resource_type, id)
    );
    CREATE UNIQUE INDEX IF NOT EXISTS scim_resources_user_name ON scim_resources (resource_type, user_name);
    CREATE INDEX IF NOT EXISTS scim_resources_external_id ON scim_resources (resource_type, external_id);
  `);
}
