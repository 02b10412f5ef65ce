import type { Database } from 'sql.js';

/**
 * One row per resource. The JSON column is the resource exactly as the core handed it over; the
 * other columns are copies the database can index:
 * - `tenant` is `ctx.tenant` (`''` for the default tenant) and leads every key and index, so ids,
 *   unique values and queries are per tenant;
 * - `user_name` (`comparisonKey`: NFC, lower-cased) and `external_id` answer `userName eq "…"` /
 *   `externalId eq "…"`, the lookups identity providers make before almost every write;
 * - `version` is `meta.version`, the compare-and-swap token of `replace` and `delete`.
 *
 * Uniqueness lives in its own table: one row per unique attribute value (by `comparisonKey`: NFC and
 * lower-cased when the schema says it is not caseExact), whose primary key makes the database
 * refuse a second holder in the tenant, atomically.
 */
export function createTables(db: Database): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS scim_resources (
      tenant        TEXT NOT NULL,
      resource_type TEXT NOT NULL,
      id            TEXT NOT NULL,
      user_name     TEXT,
      external_id   TEXT,
      version       TEXT NOT NULL,
      data          TEXT NOT NULL,
      PRIMARY KEY (tenant, resource_type, id)
    );
    CREATE INDEX IF NOT EXISTS scim_resources_user_name ON scim_resources (tenant, resource_type, user_name);
    CREATE INDEX IF NOT EXISTS scim_resources_external_id ON scim_resources (tenant, resource_type, external_id);

    CREATE TABLE IF NOT EXISTS scim_unique_values (
      tenant        TEXT NOT NULL,
      resource_type TEXT NOT NULL,
      attribute     TEXT NOT NULL,
      value         TEXT NOT NULL,
      id            TEXT NOT NULL,
      PRIMARY KEY (tenant, resource_type, attribute, value)
    );
    CREATE INDEX IF NOT EXISTS scim_unique_values_owner ON scim_unique_values (tenant, resource_type, id);
  `);
}
