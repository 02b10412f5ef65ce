import type {
  CascadedChange,
  DeleteContext,
  ScimResource,
  ScimStore,
  StoreCapabilities,
  StoreContext,
  StoreDeleteResult,
  StoreWriteResult,
  WriteContext,
} from '@scimkit/core';
import { cascadeReferences } from './cascade-references.js';
import { outboxTables } from './outbox/outbox-tables.js';
import { createPostgresOutbox } from './outbox/postgres-outbox.js';
import { writeEvents } from './outbox/write-events.js';
import { applyMemberChange, insertMembers, membersColumn, rewriteMembers } from './member-rows.js';
import { queryStore } from './query-store.js';
import type { SqlClient, SqlQueryable } from './sql-client.js';
import { storeTables, type StoreTables } from './sql-names.js';
import { fromStoredForm, toStoredForm } from './stored-form.js';
import { uniqueKey } from './unique-key.js';
import { holdsNul, unkeepableValue } from './unkeepable-value.js';

export interface PostgresStoreOptions {
  /** Where the tables are: {@link fromPgPool} over a `pg` Pool, or {@link fromPGlite}. Run {@link migrate} on it first. */
  readonly client: SqlClient;
  /** PostgreSQL schema holding the tables (as given to `migrate`). Default `public`. */
  readonly schema?: string;
  /**
   * Multi-valued attributes kept one row per element in the members table, by resource type name.
   * Default `{ Group: 'members' }`: one membership change writes one row, and `members.value eq`,
   * `User.groups` and delete cascades are index lookups.
   */
  readonly memberAttributes?: Readonly<Record<string, string>>;
  /** Partitions of the events outbox (docs/concepts/events.md). Default 16; keep it fixed for a database. */
  readonly eventPartitions?: number;
}

/** Everything is pushed down, keyset cursors included; what cannot be translated is finished in memory inside `query`. */
const CAPABILITIES: StoreCapabilities = { filter: () => true, sort: true, paging: true, cursor: true, references: true, events: true };

/** Carries an expected outcome out of a transaction that must roll back. */
class Outcome<T> {
  constructor(readonly result: T) {}
}

/**
 * A {@link ScimStore} in PostgreSQL (a server through `pg`, or PGlite): resources as JSONB rows keyed
 * by (tenant, resource type, id), uniqueness in a table with a primary key per unique value, group
 * members one row each, filters, sorting and paging in SQL. Compare-and-swap on `meta.version` is
 * one `UPDATE … WHERE version = $expected`; a uniqueness conflict is returned as data, and so is a
 * value jsonb cannot hold (U+0000 in a string: `invalidValue`, 400); a connection or query failure
 * rejects, and the server answers 500 and reports it to its logger.
 */
export function createPostgresStore(options: PostgresStoreOptions): ScimStore {
  const client = options.client;
  const t = storeTables(options.schema ?? 'public');
  const memberAttributes = options.memberAttributes ?? { Group: 'members' };
  const events = outboxTables(options.schema ?? 'public').events;
  const partitions = options.eventPartitions ?? 16;
  const memberAttribute = (resourceType: string): string | undefined =>
    Object.prototype.hasOwnProperty.call(memberAttributes, resourceType) ? memberAttributes[resourceType] : undefined;

  async function inTransaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T> {
    try {
      return await client.transaction(async (tx) => {
        const result = await work(tx);
        if (result instanceof Outcome) throw result;
        return result;
      });
    } catch (error) {
      if (error instanceof Outcome) return error.result as T;
      throw error;
    }
  }

  /** A create or replace: a value PostgreSQL cannot keep (U+0000 in jsonb) is `invalidValue`, and the transaction rolls back. */
  async function inWrite(work: (tx: SqlQueryable) => Promise<StoreWriteResult>): Promise<StoreWriteResult> {
    try {
      return await inTransaction(work);
    } catch (error) {
      const refused = unkeepableValue(error);
      if (refused !== undefined) return refused;
      throw error;
    }
  }

  return {
    capabilities: CAPABILITIES,
    outbox: createPostgresOutbox(client, { schema: options.schema ?? 'public', partitions }),

    create(resourceType, resource, ctx) {
      const tenant = tenantOf(ctx);
      const attribute = memberAttribute(resourceType);
      const stored = toStoredForm(resource, attribute);
      return inWrite(async (tx) => {
        const inserted = await tx.query(
          `INSERT INTO ${t.resources} (tenant, resource_type, id, version, created, last_modified, data)
           VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb) ON CONFLICT DO NOTHING RETURNING id`,
          [tenant, resourceType, resource.id, resource.meta.version, instant(resource.meta.created), instant(resource.meta.lastModified), JSON.stringify(stored.data)],
        );
        if (inserted.rows.length === 0) return new Outcome({ ok: false, reason: 'uniqueness', attribute: 'id' }) as never;
        const conflict = await claimUniqueValues(tx, t, tenant, resourceType, resource, ctx);
        if (conflict !== undefined) return new Outcome({ ok: false, reason: 'uniqueness', attribute: conflict }) as never;
        if (stored.members !== undefined) await insertMembers(tx, t, { tenant, resourceType, id: resource.id }, stored.members);
        await writeEvents(tx, events, ctx.events?.(resource), partitions);
        return { ok: true, resource: structuredClone(resource) };
      });
    },

    async get(resourceType, id, ctx) {
      // No row can hold U+0000 (a NUL in a text parameter is an error): no such resource.
      if (holdsNul(id)) return undefined;
      const attribute = memberAttribute(resourceType);
      const found = await client.query<{ data: Record<string, unknown>; members?: unknown[] | null }>(
        `SELECT r.data${attribute === undefined ? '' : `, ${membersColumn(t)}`} FROM ${t.resources} r WHERE r.tenant = $1 AND r.resource_type = $2 AND r.id = $3`,
        [tenantOf(ctx), resourceType, id],
      );
      const row = found.rows[0];
      return row === undefined ? undefined : fromStoredForm(row.data, row.members, attribute);
    },

    replace(resourceType, id, resource, expectedVersion, ctx) {
      const tenant = tenantOf(ctx);
      const attribute = memberAttribute(resourceType);
      const copy = { ...resource, id };
      const stored = toStoredForm(copy, attribute);
      if (holdsNul(id)) return Promise.resolve({ ok: false, reason: 'notFound' });
      return inWrite(async (tx) => {
        const updated = await tx.query(
          `UPDATE ${t.resources} SET version = $5, created = $6, last_modified = $7, data = $8::jsonb
           WHERE tenant = $1 AND resource_type = $2 AND id = $3 AND version = $4 RETURNING id`,
          [tenant, resourceType, id, expectedVersion, copy.meta.version, instant(copy.meta.created), instant(copy.meta.lastModified), JSON.stringify(stored.data)],
        );
        if (updated.rows.length === 0) return new Outcome(await missOutcome(tx, t, tenant, resourceType, id)) as never;
        const conflict = await claimUniqueValues(tx, t, tenant, resourceType, copy, ctx, id);
        if (conflict !== undefined) return new Outcome({ ok: false, reason: 'uniqueness', attribute: conflict }) as never;
        if (attribute !== undefined) {
          const group = { tenant, resourceType, id };
          const final = stored.members ?? [];
          const change = ctx.changes?.find((c) => c.attribute === attribute);
          if (change !== undefined) await applyMemberChange(tx, t, group, change, final);
          else await rewriteMembers(tx, t, group, final);
        }
        await writeEvents(tx, events, ctx.events?.(copy), partitions);
        return { ok: true, resource: structuredClone(copy) };
      });
    },

    delete(resourceType, id, expectedVersion, ctx) {
      const tenant = tenantOf(ctx);
      if (holdsNul(id)) return Promise.resolve({ ok: false, reason: 'notFound' });
      return inTransaction<StoreDeleteResult>(async (tx) => {
        const deleted = await tx.query(
          `DELETE FROM ${t.resources} WHERE tenant = $1 AND resource_type = $2 AND id = $3 AND ($4::text IS NULL OR version = $4) RETURNING id`,
          [tenant, resourceType, id, expectedVersion ?? null],
        );
        if (deleted.rows.length === 0) return new Outcome(await missOutcome(tx, t, tenant, resourceType, id)) as never;
        const cascaded: CascadedChange[] = await cascadeReferences(tx, t, tenant, id, deleteContext(ctx), memberAttribute);
        await writeEvents(tx, events, ctx?.events?.(cascaded), partitions);
        return cascaded.length === 0 ? { ok: true } : { ok: true, cascaded };
      });
    },

    query(resourceType, query, ctx) {
      return queryStore(client, t, resourceType, query, tenantOf(ctx), memberAttribute(resourceType));
    },
  };
}

function tenantOf(ctx: StoreContext | undefined): string {
  return ctx?.tenant ?? '';
}

function deleteContext(ctx: DeleteContext | undefined): DeleteContext {
  return ctx ?? {};
}

/** A dateTime as the instant column value, or NULL when it is not one. */
function instant(text: string | undefined): string | null {
  if (typeof text !== 'string') return null;
  const ms = Date.parse(/(?:[Zz]|[+-]\d{2}:\d{2})$/.test(text) ? text : `${text}Z`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** Why a compare-and-swap matched no row: the resource is gone, or its version moved on. */
async function missOutcome(tx: SqlQueryable, t: StoreTables, tenant: string, resourceType: string, id: string): Promise<{ ok: false; reason: 'notFound' | 'versionMismatch' }> {
  const exists = await tx.query(`SELECT 1 FROM ${t.resources} WHERE tenant = $1 AND resource_type = $2 AND id = $3`, [tenant, resourceType, id]);
  return { ok: false, reason: exists.rows.length === 0 ? 'notFound' : 'versionMismatch' };
}

/**
 * Records the resource's unique values (RFC 7643 §2.2 uniqueness server|global) in the unique
 * values table, whose primary key makes a second holder impossible even across instances; drops
 * values it no longer holds. Returns the first attribute another resource already holds.
 */
async function claimUniqueValues(
  tx: SqlQueryable,
  t: StoreTables,
  tenant: string,
  resourceType: string,
  resource: ScimResource,
  ctx: WriteContext,
  replacing?: string,
): Promise<string | undefined> {
  const keys: [string, string][] = [];
  for (const unique of ctx.unique) {
    const key = uniqueKey(resource, unique);
    if (key !== undefined) keys.push([unique.path, key]);
  }
  const owner = [tenant, resourceType, resource.id];
  if (replacing !== undefined) {
    await tx.query(
      `DELETE FROM ${t.uniqueValues} WHERE tenant = $1 AND resource_type = $2 AND id = $3
       AND (attribute, key) NOT IN (SELECT e->>0, e->>1 FROM jsonb_array_elements($4::jsonb) e)`,
      [...owner, JSON.stringify(keys)],
    );
  }
  if (keys.length === 0) return undefined;
  const claimed = await tx.query<{ attribute: string }>(
    `INSERT INTO ${t.uniqueValues} AS u (tenant, resource_type, attribute, key, id)
     SELECT $1, $2, e->>0, e->>1, $3 FROM jsonb_array_elements($4::jsonb) e
     ON CONFLICT (tenant, resource_type, attribute, key) DO UPDATE SET id = excluded.id WHERE u.id = excluded.id
     RETURNING attribute`,
    [...owner, JSON.stringify(keys)],
  );
  const held = new Set(claimed.rows.map((row) => row.attribute));
  return keys.find(([attribute]) => !held.has(attribute))?.[0];
}
