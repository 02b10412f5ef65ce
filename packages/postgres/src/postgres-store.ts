import type {
  CascadedChange,
  DeleteContext,
  ReferenceLookup,
  Referral,
  ScimResource,
  ScimStore,
  StoreAssignment,
  StoreCapabilities,
  StoreContext,
  StoreDeleteResult,
  StoreWriteResult,
} from '@scimkit/core';
import { cascadeReferences } from './cascade-references.js';
import { eventsCte, insertEventsSql, outboxTables } from './outbox/outbox-tables.js';
import { createPostgresOutbox } from './outbox/postgres-outbox.js';
import { eventParam, writeEvents } from './outbox/write-events.js';
import { applyMemberChange, insertMembers, membersColumn, rewriteMembers } from './member-rows.js';
import { assignMissSql, assignSql } from './assign-statement.js';
import { queryStore } from './query-store.js';
import { QueryShapes } from './query-shapes.js';
import { countedCte, foldsCounts } from './resource-counts.js';
import { queryReferrers, readReferrers, referralsOf, referrersColumn, type ReadReferrers, type ReferrerSource } from './referrers.js';
import type { SqlClient, SqlQueryable } from './sql-client.js';
import { storeTables, type StoreTables } from './sql-names.js';
import { fromStoredForm, toStoredForm, type StoredForm } from './stored-form.js';
import { claimsOf, clashingAttribute, createParams, createSql, isUniqueViolation, releaseOrphans, replaceParams, replaceSql, type Claims, type ResourceRow, type WriteRow } from './resource-writes.js';
import { StatementNames } from './statement-names.js';
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
  /**
   * The longest one store call waits before failing as unavailable (the acquire timeout plus the
   * statement timeout; `openPostgresStore` sets it), declared as `capabilities.callTimeoutMs`: the
   * server bounds each request's store calls together by it (docs/stores/postgres.md).
   */
  readonly callTimeoutMs?: number;
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
 * value jsonb cannot hold (U+0000 in a string: `invalidValue`, 400); a transient failure of the
 * client (a lost connection, a timeout) rejects as `StoreUnavailableError` (503), any other failure
 * rejects as is (500), and the server reports either to its logger.
 */
export function createPostgresStore(options: PostgresStoreOptions): ScimStore {
  const client = options.client;
  const t = storeTables(options.schema ?? 'public');
  const memberAttributes = options.memberAttributes ?? { Group: 'members' };
  const events = outboxTables(options.schema ?? 'public').events;
  const partitions = options.eventPartitions ?? 16;
  const memberAttribute = (resourceType: string): string | undefined =>
    Object.prototype.hasOwnProperty.call(memberAttributes, resourceType) ? memberAttributes[resourceType] : undefined;

  /** Names of the statements that repeat (SqlQueryable.query's `name`): prepared once per connection. */
  const names = new StatementNames();
  /**
   * The texts of the statements of get, create and replace, built once per shape (resource type,
   * groups column): a text of 1–2 KB built and hashed (for its name) on every request cost more
   * than the rest of the store's work on it.
   */
  const texts = new Map<string, string>();
  const textOf = (shape: string, build: () => string): string => {
    let text = texts.get(shape);
    if (text === undefined) texts.set(shape, (text = build()));
    return text;
  };
  const eventsName = names.of(insertEventsSql(events));
  const nameOf = (text: string): string | undefined => names.of(text);
  /** The translations of queries, by their shape (query-shapes.ts): a `userName eq` with another value reuses its statement. */
  const shapes = new QueryShapes();

  /**
   * What a read with `ctx.referrers` read along with each resource it returned (and with each
   * referrer it read, when it walked the whole nesting), for the `referrers` calls that follow
   * (ScimStore.referrers): held only as long as the object lives.
   */
  const prefetched = new WeakMap<object, { readonly key: string; readonly referrers: readonly ScimResource[] }>();
  const sourceOf = (lookup: ReferenceLookup): ReferrerSource => ({ lookup, inTable: memberAttribute(lookup.resourceType) === lookup.attribute });
  /** Keeps what was read: the referrers of `resources`, and of every referrer when the read was complete. */
  const remember = (key: string, read: ReadReferrers, resources: readonly ScimResource[]): void => {
    for (const resource of resources) prefetched.set(resource, { key, referrers: read.of.get(resource.id) ?? [] });
    if (read.complete) for (const referrer of read.referrers) prefetched.set(referrer, { key, referrers: read.of.get(referrer.id) ?? [] });
  };
  /** The referrers column of a read acting for `ctx`, and how to keep what it read. */
  const prefetch = (ctx: StoreContext | undefined): Prefetch | undefined => {
    const lookup = ctx?.referrers;
    if (lookup === undefined) return undefined;
    const source = sourceOf(lookup);
    const key = lookupKey(lookup, tenantOf(ctx));
    return {
      shape: lookupKey(lookup, ''),
      // Methods, not arrow properties: this object is made for every read that shows `groups`.
      column(tenant, id) {
        return `${referrersColumn(t, source, tenant, id)} AS referrers`;
      },
      keep(resource, value) {
        remember(key, readReferrers(source, value), [resource]);
      },
    };
  };

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

  /** Where single writing statements go: `client.write`, else a transaction of one statement. */
  const writer = (): SqlQueryable => ({
    query: <Row>(text: string, params?: readonly unknown[], name?: string) =>
      client.write !== undefined ? client.write<Row>(text, params, name) : client.transaction((tx) => tx.query<Row>(text, params, name)),
  });

  /** One writing statement on its own: `client.write`, else a transaction of that statement (see SqlClient.write). Its one row, if any. */
  async function writeOnce(text: string, params: readonly unknown[]): Promise<WriteRow | undefined> {
    const name = names.of(text);
    const result = client.write !== undefined ? await client.write<WriteRow>(text, params, name) : await client.transaction((tx) => tx.query<WriteRow>(text, params, name));
    return result.rows[0];
  }

  /**
   * A create or replace whose statement claims the resource's unique values: a claim another
   * resource holds fails it (23505, nothing written) and is answered `uniqueness` with the attribute
   * that clashed (`id` first for a create whose id is taken); if the holder let the value go
   * meanwhile, the write runs again (at most 3 times). A value PostgreSQL cannot keep (U+0000 in
   * jsonb) is `invalidValue`.
   */
  async function claimed(row: ResourceRow, claims: Claims, creates: boolean, write: () => Promise<StoreWriteResult>): Promise<StoreWriteResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        const refused = unkeepableValue(error);
        if (refused !== undefined) return refused;
        if (!isUniqueViolation(error)) throw error;
        if (creates && (await resourceExists(client, t, row.tenant, row.resourceType, row.id))) return { ok: false, reason: 'uniqueness', attribute: 'id' };
        const attribute = await clashingAttribute(client, t, row.tenant, row.resourceType, row.id, claims);
        if (attribute !== undefined) return { ok: false, reason: 'uniqueness', attribute };
        // Only values whose holder is gone clash: free them, then write again.
        await releaseOrphans(writer(), t, row.tenant, row.resourceType, row.id, claims);
        if (attempt >= 3) return { ok: false, reason: 'uniqueness', attribute: claims.all[0]?.[0] ?? 'id' };
      }
    }
  }

  /** One writing statement on its own (as writeOnce): its rows. */
  async function writeRows<Row>(text: string, params: readonly unknown[]): Promise<Row[]> {
    const name = names.of(text);
    const result = client.write !== undefined ? await client.write<Row>(text, params, name) : await client.transaction((tx) => tx.query<Row>(text, params, name));
    return result.rows;
  }

  return {
    capabilities: options.callTimeoutMs === undefined ? CAPABILITIES : { ...CAPABILITIES, callTimeoutMs: options.callTimeoutMs },
    outbox: createPostgresOutbox(client, { schema: options.schema ?? 'public', partitions }),

    create(resourceType, resource, ctx) {
      const tenant = tenantOf(ctx);
      const attribute = memberAttribute(resourceType);
      const stored = toStoredForm(resource, attribute);
      const row = rowOf(tenant, resourceType, resource, stored.data);
      const claims = claimsOf(resource, ctx);
      const groups = prefetch(ctx);
      const members = stored.members;
      // Without member rows, the events go in the write's statement (kept only if it writes): one round trip.
      const inStatement = members === undefined ? ctx.events?.(resource) : undefined;
      const params = createParams(row, claims);
      const also = inStatement === undefined || inStatement.length === 0 ? '' : eventsCte(events, `$${params.push(eventParam(inStatement, partitions))}`, 'inserted');
      const others = claims.others !== undefined;
      const fold = foldsCounts(resource.id);
      const text = textOf(`create\u0000${others}\u0000${also !== ''}\u0000${groups?.shape ?? ''}\u0000${fold}`, () =>
        createSql(t, others, groups === undefined ? '' : `, ${groups.column('$1', '$3')}`, also, fold),
      );
      // The statement either writes the row or fails (claimed answers why).
      const done = (written: WriteRow | undefined): StoreWriteResult => {
        const copy = writtenCopy(resource, stored, row);
        groups?.keep(copy, written?.referrers);
        return { ok: true, resource: copy };
      };
      // One statement unless member rows go with it (then one transaction, the events in it).
      const single = members === undefined;
      return claimed(row, claims, true, async () => {
        if (single) return done(await writeOnce(text, params));
        return inTransaction(async (tx) => {
          const written = (await tx.query<WriteRow>(text, params, names.of(text))).rows[0];
          if (members !== undefined) await insertMembers(tx, t, { tenant, resourceType, id: resource.id }, members);
          await writeEvents(tx, events, ctx.events?.(resource), partitions, eventsName);
          return done(written);
        });
      });
    },

    async get(resourceType, id, ctx) {
      // No row can hold U+0000 (a NUL in a text parameter is an error): no such resource.
      if (holdsNul(id)) return undefined;
      const attribute = memberAttribute(resourceType);
      const groups = prefetch(ctx);
      const text = textOf(
        `get\u0000${attribute !== undefined}\u0000${groups?.shape ?? ''}`,
        () => `SELECT r.data${attribute === undefined ? '' : `, ${membersColumn(t)}`}${groups === undefined ? '' : `, ${groups.column('r.tenant', 'r.id')}`} FROM ${t.resources} r WHERE r.tenant = $1 AND r.resource_type = $2 AND r.id = $3`,
      );
      const found = await client.query<{ data: Record<string, unknown>; members?: unknown[] | null; referrers?: unknown }>(text, [tenantOf(ctx), resourceType, id], names.of(text));
      const row = found.rows[0];
      if (row === undefined) return undefined;
      const resource = fromStoredForm(row.data, row.members, attribute);
      groups?.keep(resource, row.referrers);
      return resource;
    },

    replace(resourceType, id, resource, expectedVersion, ctx) {
      const tenant = tenantOf(ctx);
      const attribute = memberAttribute(resourceType);
      const copy = { ...resource, id };
      const stored = toStoredForm(copy, attribute);
      if (holdsNul(id)) return Promise.resolve({ ok: false, reason: 'notFound' });
      const row = rowOf(tenant, resourceType, copy, stored.data);
      const claims = claimsOf(copy, ctx);
      const groups = prefetch(ctx);
      // One statement unless the type keeps member rows (then one transaction, the events in it).
      const single = attribute === undefined;
      // In one statement the events are derived before it runs, and kept only if it writes.
      const inStatement = single ? ctx.events?.(copy) : undefined;
      const params = replaceParams(row, expectedVersion, claims);
      const also = inStatement === undefined || inStatement.length === 0 ? '' : eventsCte(events, `$${params.push(eventParam(inStatement, partitions))}`, 'updated');
      const others = claims.others !== undefined;
      const text = textOf(`replace\u0000${others}\u0000${also !== ''}\u0000${groups?.shape ?? ''}`, () =>
        replaceSql(t, others, groups === undefined ? '' : `, ${groups.column('$1', '$3')}`, also),
      );
      const done = (written: WriteRow): StoreWriteResult => {
        const result = writtenCopy(copy, stored, row);
        groups?.keep(result, written.referrers);
        return { ok: true, resource: result };
      };
      return claimed(row, claims, false, async () => {
        if (single) {
          const written = await writeOnce(text, params);
          // Nothing at the expected version (rare: another process wrote, or deleted): which of the two.
          return written?.written === 1 ? done(written) : missOutcome(client, t, tenant, resourceType, id);
        }
        return inTransaction(async (tx) => {
          const written = (await tx.query<WriteRow>(text, params, names.of(text))).rows[0];
          if (written?.written !== 1) return new Outcome(await missOutcome(tx, t, tenant, resourceType, id)) as never;
          if (attribute !== undefined) {
            const group = { tenant, resourceType, id };
            const final = stored.members ?? [];
            const change = ctx.changes?.find((c) => c.attribute === attribute);
            if (change !== undefined) await applyMemberChange(tx, t, group, change, final);
            else await rewriteMembers(tx, t, group, final);
          }
          await writeEvents(tx, events, ctx.events?.(copy), partitions, eventsName);
          return done(written);
        });
      });
    },

    async assign(resourceType, id, assignment, ctx) {
      const tenant = tenantOf(ctx);
      const values = JSON.stringify(assignment.values);
      // No row can hold U+0000: no such resource; a value with it is the read path's to refuse (400).
      if (holdsNul(id)) return { ok: false, reason: 'notFound' };
      if (holdsNul(values)) return { ok: false, reason: 'declined' };
      // The row's JSON text may be at most this long now: the assignment adds at most its own JSON,
      // the new lastModified and a digit of the version (32 bytes spare).
      const room = assignment.maxResourceBytes - utf8Bytes(values) - utf8Bytes(assignment.lastModified) - 32;
      if (room <= 0) return { ok: false, reason: 'declined' };
      const attribute = memberAttribute(resourceType);
      const groups = prefetch(ctx);
      const members = attribute === undefined ? '' : `, ${membersColumn(t)}`;
      const extra = groups === undefined ? '' : `, ${groups.column('r.tenant', 'r.id')}`;
      const expected = assignment.expectedVersion;
      const parents = Object.keys(assignment.values).filter((key) => typeof assignment.values[key] === 'object').sort();
      const shape = `\u0000${attribute !== undefined}\u0000${groups?.shape ?? ''}`;
      const previous = assignment.wantPrevious === true;
      // One text per set of complex attributes assigned into (the schema's few; `name` nearly always).
      const text = textOf(`assign\u0000${expected !== undefined}\u0000${previous}\u0000${parents.join('\u0001')}${shape}`, () =>
        assignSql(t, parents, expected !== undefined, previous, members, extra),
      );
      const params: unknown[] = [tenant, resourceType, id, values, instant(assignment.lastModified), assignment.lastModified, room, assignment.freshVersion];
      if (expected !== undefined) params.push(expected);
      if (previous) params.push([...Object.keys(assignment.values), 'meta']);
      const written = await writeRows<AssignedRow & { previous?: Record<string, unknown> | null }>(text, params);
      const row = written[0];
      if (row !== undefined) {
        const resource = assignedResource(row, attribute, groups);
        return previous ? { ok: true, resource, changed: true, previous: row.previous ?? {} } : { ok: true, resource, changed: true };
      }
      // Nothing written: gone, another version, already holding the values, or declined (a row that
      // may grow past the limit, a writer in between).
      const missText = textOf(`assign-miss${shape}`, () => assignMissSql(t, members, extra));
      const found = (await client.query<AssignedRow & { version: string; holds: boolean }>(missText, [tenant, resourceType, id, values], names.of(missText))).rows[0];
      if (found === undefined) return { ok: false, reason: 'notFound' };
      if (expected !== undefined && found.version !== expected) return { ok: false, reason: 'versionMismatch' };
      if (!found.holds) return { ok: false, reason: 'declined' };
      const resource = assignedResource(found, attribute, groups);
      // Unchanged: what it held before is what it holds.
      return previous ? { ok: true, resource, changed: false, previous: heldOf(resource, assignment) } : { ok: true, resource, changed: false };
    },

    delete(resourceType, id, expectedVersion, ctx) {
      const tenant = tenantOf(ctx);
      if (holdsNul(id)) return Promise.resolve({ ok: false, reason: 'notFound' });
      return inTransaction<StoreDeleteResult>(async (tx) => {
        // The resource and its unique values (schema version 4: no foreign key cascades them), and
        // its type's count change (versions 8 and 9, folded now and then), in one statement.
        const fold = foldsCounts(id);
        const text = textOf(`delete\u0000${fold}`, () => `WITH deleted AS (
            DELETE FROM ${t.resources} WHERE tenant = $1 AND resource_type = $2 AND id = $3 AND ($4::text IS NULL OR version = $4) RETURNING id
          ), released AS (
            DELETE FROM ${t.uniqueValues} WHERE tenant = $1 AND resource_type = $2 AND id = $3 AND EXISTS (SELECT 1 FROM deleted)
          )${countedCte(t, 'deleted', -1, fold)}
          SELECT id FROM deleted`);
        const deleted = await tx.query(text, [tenant, resourceType, id, expectedVersion ?? null], names.of(text));
        if (deleted.rows.length === 0) return new Outcome(await missOutcome(tx, t, tenant, resourceType, id)) as never;
        const cascaded: CascadedChange[] = await cascadeReferences(tx, t, tenant, id, deleteContext(ctx), memberAttribute);
        await writeEvents(tx, events, ctx?.events?.(cascaded), partitions, eventsName);
        return cascaded.length === 0 ? { ok: true } : { ok: true, cascaded };
      });
    },

    query(resourceType, query, ctx) {
      return queryStore(client, t, resourceType, query, tenantOf(ctx), memberAttribute(resourceType), prefetch(ctx), nameOf, shapes);
    },

    async referrers(lookup, resources, ctx) {
      const key = lookupKey(lookup, tenantOf(ctx));
      const found: Referral[] = [];
      const unread: ScimResource[] = [];
      for (const resource of resources) {
        const known = prefetched.get(resource);
        if (known !== undefined && known.key === key) for (const referrer of known.referrers) found.push({ id: resource.id, referrer });
        else if (!holdsNul(resource.id)) unread.push(resource);
      }
      if (unread.length > 0) {
        const read = await queryReferrers(client, t, sourceOf(lookup), tenantOf(ctx), [...new Set(unread.map((r) => r.id))], (text) => names.of(text));
        remember(key, read, unread);
        found.push(...referralsOf(read, unread));
      }
      return found;
    },
  };
}

/** A read's referrers column (`StoreContext.referrers`): its SQL for a row, and keeping what it read with the resource. */
export interface Prefetch {
  /** What the column's SQL depends on (the lookup, not the tenant): statements that add it can be kept by it. */
  readonly shape: string;
  column(tenant: string, id: string): string;
  keep(resource: ScimResource, value: unknown): void;
}

/** What a remembered answer is valid for: the lookup, and the tenant it was read for. */
function lookupKey(lookup: ReferenceLookup, tenant: string): string {
  return `${tenant}\u0000${lookup.resourceType}\u0000${lookup.attribute}\u0000${String(lookup.caseExact)}`;
}

function tenantOf(ctx: StoreContext | undefined): string {
  return ctx?.tenant ?? '';
}

function deleteContext(ctx: DeleteContext | undefined): DeleteContext {
  return ctx ?? {};
}

/** The row of a create or replace. */
function rowOf(tenant: string, resourceType: string, resource: ScimResource, data: Record<string, unknown>): ResourceRow {
  const meta = resource.meta;
  const created = instant(meta.created);
  return {
    tenant,
    resourceType,
    id: resource.id,
    version: meta.version,
    created,
    // A create's two are the same text: parsed once.
    lastModified: meta.lastModified === meta.created ? created : instant(meta.lastModified),
    data: JSON.stringify(data),
  };
}

/**
 * The written resource as the caller gets it back: a copy of its own (never the caller's object),
 * parsed from the row's JSON when the row holds the resource whole (what a read returns, and about
 * twice as fast as structuredClone), else (member rows split off) a deep copy.
 */
function writtenCopy(resource: ScimResource, stored: StoredForm, row: ResourceRow): ScimResource {
  return stored.data === resource ? (JSON.parse(row.data) as ScimResource) : structuredClone(resource);
}

/** A row `assignSql` or `assignMissSql` returned. */
interface AssignedRow {
  readonly data: Record<string, unknown>;
  readonly members?: unknown[] | null;
  readonly referrers?: unknown;
}

/** The resource of an assigned row, with what its referrers column read kept for `referrers`. */
function assignedResource(row: AssignedRow, attribute: string | undefined, groups: Prefetch | undefined): ScimResource {
  const resource = fromStoredForm(row.data, row.members, attribute);
  groups?.keep(resource, row.referrers);
  return resource;
}

/** What `resource` holds of the assigned attributes and of `meta` (StoreAssignPrevious). */
function heldOf(resource: ScimResource, assignment: StoreAssignment): Record<string, unknown> {
  const held: Record<string, unknown> = {};
  const source = resource as unknown as Record<string, unknown>;
  for (const key of [...Object.keys(assignment.values), 'meta']) {
    if (Object.prototype.hasOwnProperty.call(source, key)) Object.defineProperty(held, key, { value: source[key], enumerable: true, writable: true, configurable: true });
  }
  return held;
}

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** A dateTime as the instant column value, or NULL when it is not one. */
function instant(text: string | undefined): string | null {
  if (typeof text !== 'string') return null;
  const ms = Date.parse(/(?:[Zz]|[+-]\d{2}:\d{2})$/.test(text) ? text : `${text}Z`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** Why a compare-and-swap matched no row: the resource is gone, or its version moved on. */
async function missOutcome(q: SqlQueryable, t: StoreTables, tenant: string, resourceType: string, id: string): Promise<{ ok: false; reason: 'notFound' | 'versionMismatch' }> {
  return { ok: false, reason: (await resourceExists(q, t, tenant, resourceType, id)) ? 'versionMismatch' : 'notFound' };
}

async function resourceExists(q: SqlQueryable, t: StoreTables, tenant: string, resourceType: string, id: string): Promise<boolean> {
  const found = await q.query(`SELECT 1 FROM ${t.resources} WHERE tenant = $1 AND resource_type = $2 AND id = $3`, [tenant, resourceType, id]);
  return found.rows.length > 0;
}
