import { outboxStampStatements, outboxStatements } from './outbox/outbox-tables.js';
import { referrersFunction } from './referrers.js';
import { quoteIdent, quoteLiteral, type StoreTables } from './sql-names.js';
import { ROW_KEY_ATTRIBUTE } from './unique-key.js';

/** One schema version: the statements that take the schema from `version - 1` to `version`. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly statements: (t: StoreTables) => readonly string[];
}

/**
 * Every schema version, in order. Never edit a released entry: add the next version. Every key and
 * index starts with `tenant`, so the tenant can be the distribution column of a sharded
 * PostgreSQL (Citus): a tenant's resources, unique values and members live on one shard.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'resources, unique values, group members',
    statements: (t) => [
      `CREATE TABLE ${t.resources} (
        tenant text NOT NULL,
        resource_type text NOT NULL,
        id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        version text NOT NULL,
        created timestamptz,
        last_modified timestamptz,
        data json NOT NULL,
        PRIMARY KEY (tenant, resource_type, id)
      )`,
      // Creation order: the order of an unsorted list and the tie-break of every sort.
      `CREATE INDEX scim_resources_seq ON ${t.resources} (tenant, resource_type, seq)`,
      // The lookups identity providers make before every write (userName, externalId, group displayName),
      // on the key `eq` compares for caseExact false: NFC, lower-cased (the core's comparisonKey).
      `CREATE INDEX scim_resources_user_name ON ${t.resources} (tenant, resource_type, lower(normalize(data->>'userName', NFC)))`,
      `CREATE INDEX scim_resources_external_id ON ${t.resources} (tenant, resource_type, (data->>'externalId'))`,
      `CREATE INDEX scim_resources_display_name ON ${t.resources} (tenant, resource_type, lower(normalize(data->>'displayName', NFC)))`,
      // One row per value of an attribute with uniqueness server|global: the primary key enforces it.
      `CREATE TABLE ${t.uniqueValues} (
        tenant text NOT NULL,
        resource_type text NOT NULL,
        attribute text NOT NULL,
        key text NOT NULL,
        id text NOT NULL,
        PRIMARY KEY (tenant, resource_type, attribute, key),
        FOREIGN KEY (tenant, resource_type, id) REFERENCES ${t.resources} ON DELETE CASCADE
      )`,
      `CREATE INDEX scim_unique_values_owner ON ${t.uniqueValues} (tenant, resource_type, id)`,
      // One row per group member, in the group's order.
      `CREATE TABLE ${t.members} (
        tenant text NOT NULL,
        resource_type text NOT NULL,
        group_id text NOT NULL,
        position integer NOT NULL,
        member_id text,
        type text,
        element json NOT NULL,
        PRIMARY KEY (tenant, resource_type, group_id, position),
        FOREIGN KEY (tenant, resource_type, group_id) REFERENCES ${t.resources} ON DELETE CASCADE
      )`,
      // members.value eq (caseExact false) and User.groups: the groups of a member.
      `CREATE INDEX scim_group_members_member ON ${t.members} (tenant, lower(normalize(member_id, NFC)))`,
      // RFC 7643 §2.3.5 dateTime → instant, as the in-memory evaluator reads it: no offset means UTC,
      // fractions beyond milliseconds truncated; NULL when the text is not a dateTime.
      `CREATE FUNCTION ${t.instant}(t text) RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE
          WHEN t ~ '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?([Zz]|[+-]\\d{2}:\\d{2})$'
            THEN date_trunc('milliseconds', t::timestamptz)
          WHEN t ~ '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?)?$'
            THEN date_trunc('milliseconds', t::timestamp AT TIME ZONE 'UTC')
        END
      $$`,
      // RFC 7644 §3.4.2.3: a multi-valued attribute sorts by its primary element, else its first.
      `CREATE FUNCTION ${t.pick}(v json) RETURNS json LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE WHEN json_typeof(v) = 'array' THEN coalesce(
          (SELECT e FROM json_array_elements(v) e WHERE json_typeof(e->'primary') = 'boolean' AND e->>'primary' = 'true' LIMIT 1),
          v->0)
        ELSE v END
      $$`,
    ],
  },
  {
    version: 2,
    name: 'resources and group members as jsonb',
    statements: (t) => [
      // Rewrites both tables (an ACCESS EXCLUSIVE lock for the length of the rewrite); the expression
      // indexes on `data->>'…'` are rebuilt on the jsonb column. Every stored value converts: version 1
      // could not hold U+0000 either (reading any string of a json value that holds one fails).
      `ALTER TABLE ${t.resources} ALTER COLUMN data TYPE jsonb USING data::jsonb`,
      `ALTER TABLE ${t.members} ALTER COLUMN element TYPE jsonb USING element::jsonb`,
      `DROP FUNCTION ${t.pick}(json)`,
      `CREATE FUNCTION ${t.pick}(v jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE WHEN jsonb_typeof(v) = 'array' THEN coalesce(
          (SELECT e FROM jsonb_array_elements(v) e WHERE jsonb_typeof(e->'primary') = 'boolean' AND e->>'primary' = 'true' LIMIT 1),
          v->0)
        ELSE v END
      $$`,
    ],
  },
  {
    version: 3,
    name: 'transactional outbox of events',
    statements: (t) => outboxStatements(t.schema),
  },
  {
    version: 4,
    name: 'unique values without a foreign key',
    statements: (t) => [
      // The foreign key's check locked the new resource row (FOR KEY SHARE: a second write of the row
      // in every create) and its cascade is now done by the store: a delete removes the resource's
      // unique values in the same statement, and a value whose holder no longer exists (deleted by
      // hand, or by an instance older than this version) is freed when a write claims it.
      `ALTER TABLE ${t.uniqueValues} DROP CONSTRAINT IF EXISTS scim_unique_values_tenant_resource_type_id_fkey`,
    ],
  },
  {
    version: 5,
    name: 'events ordered by their readers',
    // The writers' per-partition advisory lock serialized writes to a partition until their commit:
    // a write now only appends its event rows, and readers stamp them in commit order.
    statements: (t) => outboxStampStatements(t.schema),
  },
  {
    version: 6,
    name: 'the userName key in the resource row',
    statements: (t) => [
      // A create claimed its userName with a second row (and two index entries) in scim_unique_values,
      // a replace probed that table for it: the key now lives in the row, under a unique index, and
      // the table keeps the other unique attributes' values. Adding a column without a default
      // rewrites nothing; the UPDATE writes every row that holds a userName value.
      `ALTER TABLE ${t.resources} ADD COLUMN unique_key text`,
      `UPDATE ${t.resources} r SET unique_key = u.key FROM ${t.uniqueValues} u
        WHERE u.tenant = r.tenant AND u.resource_type = r.resource_type AND u.id = r.id AND u.attribute = ${quoteLiteral(ROW_KEY_ATTRIBUTE)}`,
      // Those whose holder is gone (version 4) are free: dropped with the rest.
      `DELETE FROM ${t.uniqueValues} WHERE attribute = ${quoteLiteral(ROW_KEY_ATTRIBUTE)}`,
      // The table's primary key made the keys unique: the index builds on the copied ones.
      `CREATE UNIQUE INDEX scim_resources_unique_key ON ${t.resources} (tenant, resource_type, unique_key) WHERE unique_key IS NOT NULL`,
    ],
  },
  {
    version: 7,
    name: 'referrers walk as a function',
    // A read's referrers column calls it only for a resource some group holds: inlined, the walk's
    // plan was set up and torn down on every read of a user in no group (a third of its cost).
    statements: (t) => [referrersFunction(t)],
  },
  {
    version: 8,
    name: 'exact counts per resource type',
    // An unfiltered page's totalResults counted every row of the type (an index-only scan of a
    // million entries: 150-450 ms). Creates and deletes now keep the count in the same statement,
    // spread over shards of a (tenant, type) so that concurrent writes rarely share a row lock; a
    // read sums them. The initial counts are taken under a SHARE lock on the resources, so that no
    // write (of an instance still running) lands between the count and the commit.
    statements: (t) => [
      `CREATE TABLE ${t.counts} (
        tenant text NOT NULL,
        resource_type text NOT NULL,
        shard smallint NOT NULL,
        n bigint NOT NULL,
        PRIMARY KEY (tenant, resource_type, shard)
      )`,
      `LOCK TABLE ${t.resources} IN SHARE MODE`,
      `INSERT INTO ${t.counts} (tenant, resource_type, shard, n) SELECT tenant, resource_type, 0, count(*) FROM ${t.resources} GROUP BY tenant, resource_type`,
    ],
  },
  {
    version: 9,
    name: 'count changes as rows of their own',
    // A create or delete added to a count row (an upsert: the row locked, then updated), which cost
    // a create 22-36 µs of PostgreSQL's CPU with 10 or 16 writers at once. It now inserts a row
    // here (no lock anyone waits for), and one write in 64 folds the committed rows of its
    // (tenant, type) into the counts; a read sums both. The counts already there stay valid. The
    // table has no key (nothing looks a row up but by its tenant and type): its replica identity is
    // the whole row, so that a publication of deletes does not refuse the folds.
    statements: (t) => [
      `CREATE TABLE ${t.countChanges} (
        tenant text NOT NULL,
        resource_type text NOT NULL,
        n integer NOT NULL
      )`,
      `CREATE INDEX scim_resource_count_changes_type ON ${t.countChanges} (tenant, resource_type)`,
      `ALTER TABLE ${t.countChanges} REPLICA IDENTITY FULL`,
    ],
  },
];

/** The statement that creates the schema and the version table, before the lock is taken. */
export function bootstrapStatements(t: StoreTables): string[] {
  return [
    `CREATE SCHEMA IF NOT EXISTS ${quoteIdent(t.schema)}`,
    `CREATE TABLE IF NOT EXISTS ${t.migrations} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
  ];
}
