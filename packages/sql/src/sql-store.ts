import type {
  DeleteContext,
  MultiValuedChange,
  ScimLogger,
  ScimResource,
  ScimStore,
  StoreCapabilities,
  StoreContext,
  StoreDeleteResult,
  StoreQuery,
  StoreQueryResult,
  StoreWriteResult,
  WriteContext,
} from '@scimkit/core';
import { comparisonKey, createSchemaRegistry, groupResourceType, URN, userResourceType, type SchemaRegistry } from '@scimkit/core';
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import { acceptsId, mappedResolver } from './column-resolver.js';
import { compileMapping, type CompiledMapping } from './compile-mapping.js';
import { detectDialect, dialectSql, type DialectSql, type SqlDialectName } from './dialect.js';
import type { IgnoredAttribute, TableMapping, UnmappedPolicy } from './mapping.js';
import { CREATED, ID, MODIFIED, resourceToRow, restPaths, rowToResource, VERSION, versionNumber, type MemberElement } from './row-codec.js';
import { memberTypeOf, memberTypes, memberTypeValue } from './member-types.js';
import { translateFilter, translateFilterWith, type ColumnResolver, type ValueBinder } from './translate-filter.js';
import { sortParts, translateSort } from './translate-sort.js';
import { beyond, decodeCursor, encodeCursor, keysetOrder } from './keyset-cursor.js';
import { notNullViolation, uniqueViolation } from './unique-violation.js';
import { withUnavailable } from './unavailable-store.js';
import { jsonRows, readJsonRows } from './json-rows.js';
import { statementShapes } from './statement-shapes.js';
import { QueryShapes, type QuerySlots } from './query-shapes.js';
import { createSqlOutbox } from './outbox/sql-outbox.js';
import { writeSqlEvents } from './outbox/write-sql-events.js';

export interface SqlStoreOptions {
  /** The application's Kysely instance (or one `fromBetterSqlite3`, `fromPgPool`, `fromMysqlPool`, `fromPGlite` made). */
  readonly db: Kysely<any>;
  /** Default: read from the Kysely adapter. */
  readonly dialect?: SqlDialectName;
  /** One mapping per resource type name (`{ User: {...}, Group: {...} }`). */
  readonly mapping: Readonly<Record<string, TableMapping>>;
  /** The schemas the server serves; default: User with the Enterprise extension, and Group. */
  readonly schemas?: SchemaRegistry;
  /** An attribute neither mapped nor kept in a `json` column: `'reject'` (400 invalidValue, the default) or `'ignore'` (reported, not kept). */
  readonly unmapped?: UnmappedPolicy;
  /** Called for every attribute not kept under the `ignore` policy (also logged as a `warn` record). */
  readonly onIgnored?: (ignored: IgnoredAttribute) => void;
  /** Where the store reports what it did not push down, adoptions and ignored attributes. */
  readonly logger?: ScimLogger;
  /**
   * A filter the mapping cannot translate is confirmed over rows read in batches; past this many rows
   * the query is declined (400 invalidFilter naming the attribute) instead of reading on. Default 10,000.
   */
  readonly maxScan?: number;
  /** Rows per batch when confirming a filter in JavaScript. Default 500. */
  readonly batchSize?: number;
  /**
   * Linking existing accounts: a create whose unique attribute (`userName`) matches a row SCIM does
   * not own yet (its `source` column differs; or, without one, its `externalId` column is empty and
   * the create brings an `externalId`, as Entra's do) adopts
   * that row (`'adopt'`: the row is updated and returned, 201) or answers 409 (`'reject'`, the default).
   * Either way it is logged.
   */
  readonly existingRows?: 'adopt' | 'reject';
  /** SQLite only: the database has `registerSqliteFunctions` (the `from…` helpers set this). */
  readonly sqliteFunctions?: boolean;
  /**
   * The longest one store call waits before failing as unavailable (acquire plus statement timeout;
   * the `from…` helpers set it), declared as `capabilities.callTimeoutMs`: the server then bounds
   * each request's store calls together by it (docs/stores/own-tables.md, "Timeouts and failures").
   */
  readonly callTimeoutMs?: number;
  /** Runs of a store call that meets a serialization failure or deadlock before it is answered 503. Default 3. */
  readonly transactionAttempts?: number;
  /**
   * Keep each write's events in outbox tables of the database, in the write's transaction
   * (`capabilities.events`, `store.outbox`; docs/stores/own-tables.md#events). Create the tables
   * first with `createSqlOutboxTables`. `partitions` (default 16): keep it fixed for a database.
   */
  readonly events?: boolean | { readonly partitions?: number };
}

const MEMBER_ALIAS = 'scim_m';
const TOTAL = '__scim_total';
const MEMBERS = '__scim_members';
const ADDED = '__scim_added';
const REFERRERS = '__scim_referrers';
/** At most this many members added by one PATCH take the one-statement path (one INSERT each in the statement). */
const ONE_STATEMENT_MEMBERS = 50;
/** Thrown inside a replace's transaction when the compare-and-swap matched no row: rolls back what it wrote. */
const NOT_SWAPPED = new Error('@scimkit/sql: version mismatch');
/** A MySQL replace whose row was deleted between its UPDATE and the read of the row. */
const NOT_FOUND = Symbol('notFound');

/**
 * A `ScimStore` over the application's own tables (docs/stores/own-tables.md): each resource type is
 * a table, attributes are columns, group members are rows of a join table. Filters, sorts and pages
 * run in SQL when the mapping translates them exactly; otherwise rows are read in bounded batches
 * and confirmed with the core's own predicate, within the request's work budget.
 */
export function createSqlStore(options: SqlStoreOptions): ScimStore {
  const db = options.db;
  const name = options.dialect ?? detectDialect(db);
  const dialect = dialectSql(name, { sqliteFunctions: options.sqliteFunctions === true });
  const registry =
    options.schemas ??
    createSchemaRegistry({ resourceTypes: [{ ...userResourceType, schemaExtensions: [{ schema: URN.enterpriseUser, required: false }] }, groupResourceType] });
  const mappings = new Map<string, CompiledMapping>();
  for (const [type, table] of Object.entries(options.mapping)) {
    const model = registry.resourceType(type);
    if (model === undefined) throw new TypeError(`@scimkit/sql: the mapping names '${type}', which the schemas do not define`);
    mappings.set(type, compileMapping(model.definition.name, model, table));
  }
  const policy = options.unmapped ?? 'reject';
  const maxScan = options.maxScan ?? 10_000;
  const batchSize = options.batchSize ?? 500;
  const log = (level: 'info' | 'warn', message: string, fields: Record<string, unknown> = {}) => {
    try {
      options.logger?.log({ level, message, ...fields });
    } catch {
      // A logger never changes an answer.
    }
  };
  log('info', `@scimkit/sql: a create whose userName matches an existing row not yet SCIM's is ${options.existingRows === 'adopt' ? 'adopted' : 'refused with 409'} (existingRows: ${options.existingRows ?? 'reject'})`);
  const multiTenant = [...mappings.values()].every((m) => m.table.tenant !== undefined);
  const storeIds = [...mappings.values()].some((m) => m.table.id.generate !== undefined && m.table.id.generate !== 'core');
  const capabilities: StoreCapabilities = {
    filter: () => true,
    sort: true,
    paging: true,
    cursor: true,
    versions: 'store',
    ids: storeIds ? 'store' : 'core',
    tenancy: multiTenant ? 'multi' : 'single',
    ...(options.callTimeoutMs === undefined ? {} : { callTimeoutMs: options.callTimeoutMs }),
    ...(options.events ? { events: true } : {}),
  };
  const partitions = typeof options.events === 'object' ? (options.events.partitions ?? 16) : 16;

  const mappingOf = (type: string): CompiledMapping | undefined => mappings.get(type);
  const tenantOf = (mapping: CompiledMapping, ctx: StoreContext | undefined, alias = 't.'): RawBuilder<boolean> => {
    if (mapping.table.tenant === undefined && ctx?.tenant !== undefined) {
      throw new Error(`@scimkit/sql: the ${mapping.resourceType} table has no tenant column; the store is single-tenant and was called for tenant '${ctx.tenant}'`);
    }
    return tenantIs(mapping, ctx?.tenant ?? '', alias);
  };
  /** The row's tenant is `tenant` (a value, or a statement shape's placeholder); always true for a single-tenant table. */
  const tenantIs = (mapping: CompiledMapping, tenant: unknown, alias = 't.'): RawBuilder<boolean> =>
    mapping.table.tenant === undefined ? sql<boolean>`(1 = 1)` : sql<boolean>`(${sql.ref(`${alias}${mapping.table.tenant}`)} = ${tenant})`;
  const shapes = statementShapes(db);
  /** A column of the row aliased `alias` (`''`: unqualified, as SQLite's RETURNING needs). */
  const col = (alias: string, column: string) => sql.ref(alias === '' ? column : `${alias}.${column}`);
  const idRef = (mapping: CompiledMapping, alias = 't') => col(alias, mapping.table.id.column);
  const versionExpr = (mapping: CompiledMapping, alias = 't') => {
    const column = col(alias, mapping.table.version.column);
    return mapping.table.version.kind === 'counter' ? column : dialect.instantMs(column);
  };
  // Built once per mapping (Kysely's raw builders are immutable): the select list of every read.
  // A group's select list carries its members (see membersColumn); the `bare` one (referrers) does not.
  const selectLists = new Map<CompiledMapping, RawBuilder<unknown>>();
  const bareLists = new Map<CompiledMapping, RawBuilder<unknown>>();
  const selectList = (mapping: CompiledMapping, bare = false): RawBuilder<unknown> => {
    const cache = bare ? bareLists : selectLists;
    let built = cache.get(mapping);
    if (built === undefined) cache.set(mapping, (built = buildSelectList(mapping, !bare)));
    return built;
  };
  /** The values every read selects of a row aliased `alias`, each with the name the row codec reads it by. */
  const selectParts = (mapping: CompiledMapping, alias: string): { name: string; value: RawBuilder<unknown> }[] => {
    const modified = mapping.table.lastModified ?? (mapping.table.version.kind === 'timestamp' ? mapping.table.version.column : undefined);
    const parts = [
      { name: ID, value: idRef(mapping, alias) },
      { name: VERSION, value: versionExpr(mapping, alias) },
      { name: CREATED, value: mapping.table.created === undefined ? sql`NULL` : dialect.instantMs(col(alias, mapping.table.created)) },
      { name: MODIFIED, value: modified === undefined ? sql`NULL` : dialect.instantMs(col(alias, modified)) },
    ];
    for (const column of [...mapping.columns, ...(mapping.table.json === undefined ? [] : [mapping.table.json])]) parts.push({ name: column, value: col(alias, column) });
    return parts;
  };
  const buildSelectList = (mapping: CompiledMapping, withMembers: boolean, alias = 't') => {
    const parts = selectParts(mapping, alias).map((p) => sql`${p.value} AS ${sql.id(p.name)}`);
    const members = withMembers ? membersColumn(mapping) : undefined;
    if (members !== undefined) parts.push(sql`${members} AS ${sql.id(MEMBERS)}`);
    return sql.join(parts);
  };
  /**
   * The select list of a statement's RETURNING: SQLite's cannot name the table's alias (its
   * statement names the table unaliased, and reads no members there), with the referrers column of
   * `group` (correlated to the row by the table's name) when the core asks for them next.
   */
  const returningLists = new Map<CompiledMapping, RawBuilder<unknown>>();
  const returningList = (mapping: CompiledMapping, group?: CompiledMapping, tenant?: unknown): RawBuilder<unknown> => {
    if (name !== 'sqlite') return listWith(mapping, group, tenant);
    let built = returningLists.get(mapping);
    if (built === undefined) returningLists.set(mapping, (built = buildSelectList(mapping, false, '')));
    return group === undefined ? built : sql`${built}, ${referrersColumn(mapping, group, tenant, idRef(mapping, mapping.table.table))} AS ${sql.id(REFERRERS)}`;
  };
  const from = (mapping: CompiledMapping) => sql`${sql.table(mapping.table.table)} AS ${sql.id('t')}`;
  /**
   * A LIMIT or OFFSET count. SQLite runs a statement whose LIMIT is a bound parameter many times
   * slower (a page of one match: ~100 µs against ~10 µs with the number written, measured with
   * better-sqlite3 12), so there it is a literal (a whole number; the texts stay few, since the
   * page size rarely changes); a parameter elsewhere.
   */
  const rowCount = (n: number): RawBuilder<unknown> => (name === 'sqlite' ? sql.lit(Math.max(0, Math.floor(n))) : sql`${n}`);

  /**
   * A group's member elements as one JSON array, a correlated subquery of the group's row: a read
   * of groups is one statement. Each element is `[member id, display, type column]`; the display is
   * the member type's `displayName` column, joined on the id (and the row's type, when a column says it).
   */
  const membersColumn = (mapping: CompiledMapping): RawBuilder<unknown> | undefined => {
    const m = mapping.table.members;
    if (m === undefined) return undefined;
    const rows = memberElements(m, MEMBER_ALIAS, m.member, m.typeColumn?.column);
    return sql`(SELECT ${rows.aggregate} FROM ${sql.table(m.table)} AS ${sql.id(MEMBER_ALIAS)} ${rows.joins} WHERE ${sql.ref(`${MEMBER_ALIAS}.${m.group}`)} = ${idRef(mapping)})`;
  };

  /**
   * What a read with `ctx.referrers` read along with each resource it returned (the groups holding
   * it), for the `referrers` call that follows (ScimStore.referrers): held only as long as the object lives.
   */
  const prefetched = new WeakMap<object, { readonly lookup: string; readonly referrers: readonly ScimResource[] }>();
  const lookupKey = (lookup: { readonly resourceType: string; readonly attribute: string }) => `${lookup.resourceType}\u0000${lookup.attribute.toLowerCase()}`;
  /** The group mapping whose member rows can hold rows of `mapping`, when the core asks for them next (`ctx.referrers`). */
  const referrerSource = (mapping: CompiledMapping, ctx: StoreContext | undefined): CompiledMapping | undefined => {
    const lookup = ctx?.referrers;
    if (lookup === undefined || lookup.attribute.toLowerCase() !== 'members') return undefined;
    const group = mappings.get(lookup.resourceType);
    const m = group?.table.members;
    return m !== undefined && memberTypes(m).includes(mapping.resourceType) ? group : undefined;
  };
  /**
   * The groups holding a row as a member, as one column of the row's read (a correlated subquery:
   * one index probe of the join table when it is in none), so that a read and its `User.groups`
   * are one statement. Each group is the values of its select list (`selectParts`), its members left out.
   */
  const referrersColumn = (mapping: CompiledMapping, group: CompiledMapping, tenant: unknown, row = idRef(mapping)): RawBuilder<unknown> => {
    const m = group.table.members as NonNullable<TableMapping['members']>;
    const typed = m.typeColumn === undefined ? sql`` : sql` AND ${sql.ref(`scim_rj.${m.typeColumn.column}`)} = ${memberTypeValue(m, mapping.resourceType)}`;
    const values = referrerParts(group).values;
    return sql`(SELECT ${values} FROM ${sql.table(m.table)} AS ${sql.id('scim_rj')} JOIN ${sql.table(group.table.table)} AS ${sql.id('scim_rg')} ON ${idRef(group, 'scim_rg')} = ${sql.ref(`scim_rj.${m.group}`)} WHERE ${sql.ref(`scim_rj.${m.member}`)} = ${row}${typed} AND ${tenantIs(group, tenant, 'scim_rg.')})`;
  };
  /** Built once per group mapping: the JSON of a referrer's select list, and the names the row codec reads its values by. */
  const referrerLists = new Map<CompiledMapping, { readonly values: RawBuilder<unknown>; readonly names: readonly string[] }>();
  const referrerParts = (group: CompiledMapping) => {
    let built = referrerLists.get(group);
    if (built === undefined) {
      const parts = selectParts(group, 'scim_rg');
      referrerLists.set(group, (built = { values: jsonRows(name, parts.map((p) => p.value)), names: parts.map((p) => p.name) }));
    }
    return built;
  };
  /** The select list of a read for `ctx`: with each row's groups when the core asks for them next. */
  const readList = (mapping: CompiledMapping, ctx: StoreContext | undefined): RawBuilder<unknown> => {
    const group = referrerSource(mapping, ctx);
    if (group !== undefined) tenantOf(group, ctx);
    return listWith(mapping, group, ctx?.tenant ?? '');
  };
  /** The select list, with the referrers column of `group` (for `tenant`) when there is one. */
  const listWith = (mapping: CompiledMapping, group: CompiledMapping | undefined, tenant: unknown): RawBuilder<unknown> =>
    group === undefined ? selectList(mapping) : sql`${selectList(mapping)}, ${referrersColumn(mapping, group, tenant)} AS ${sql.id(REFERRERS)}`;
  /** The groups a referrers column read, as resources in id order (the order `referrers` answers in). */
  const readReferrers = (group: CompiledMapping, raw: unknown): ScimResource[] => {
    const names = referrerParts(group).names;
    const out: ScimResource[] = [];
    // Loops, not map and Object.fromEntries: this runs for every row a read returns.
    for (const values of readJsonRows(raw)) {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i++) row[names[i] as string] = values[i];
      out.push(rowToResource(group, row));
    }
    if (out.length < 2) return out;
    const numeric = group.table.id.type === 'integer';
    return out.sort((a, b) => (numeric ? Number(a.id) - Number(b.id) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  };

  /** The JSON aggregate of member elements `[id, display, type]` over rows aliased `alias`, and the joins that find each display. */
  const memberElements = (m: NonNullable<TableMapping['members']>, alias: string, member: string, typeColumn: string | undefined) => {
    const joins: RawBuilder<unknown>[] = [];
    const displays: RawBuilder<unknown>[] = [];
    for (const [index, type] of memberTypes(m).entries()) {
      const target = mappings.get(type);
      const display = target?.attributes.find((a) => a.keys.length === 1 && a.keys[0] === 'displayName' && a.read === undefined);
      if (target === undefined || display === undefined) continue;
      const joined = `scim_u${index}`;
      const typed = typeColumn === undefined ? sql`` : sql` AND ${sql.ref(`${alias}.${typeColumn}`)} = ${memberTypeValue(m, type)}`;
      joins.push(sql`LEFT JOIN ${sql.table(target.table.table)} AS ${sql.id(joined)} ON ${sql.ref(`${joined}.${target.table.id.column}`)} = ${sql.ref(`${alias}.${member}`)}${typed}`);
      displays.push(sql.ref(`${joined}.${display.column}`));
    }
    const displayColumn = displays.length === 0 ? sql`NULL` : displays.length === 1 ? (displays[0] as RawBuilder<unknown>) : sql`COALESCE(${sql.join(displays)})`;
    return { aggregate: jsonRows(name, [sql.ref(`${alias}.${member}`), displayColumn, typeColumn === undefined ? sql`NULL` : sql.ref(`${alias}.${typeColumn}`)]), joins: sql.join(joins, sql` `) };
  };

  /**
   * PostgreSQL: a PATCH's member change and the compare-and-swap as one statement (data-modifying
   * `WITH`: the UPDATE, then the member rows only when it matched). Its snapshot predates the
   * statement, so the members returned are the row's before, less those removed, plus those added
   * (read back with their display). Undefined when the version did not match.
   */
  const casWithMembers = async (mapping: CompiledMapping, id: string, cas: RawBuilder<unknown>, change: MultiValuedChange): Promise<Record<string, unknown> | undefined> => {
    const m = mapping.table.members as NonNullable<TableMapping['members']>;
    const removed = new Set(change.removed.map((e) => e['value']).filter((v): v is string => typeof v === 'string'));
    const added = memberRows(mapping, change.added);
    const types = memberTypes(m);
    const ctes: RawBuilder<unknown>[] = [sql`scim_u AS (${cas} RETURNING ${selectList(mapping)})`];
    if (removed.size > 0) {
      ctes.push(sql`scim_d AS (DELETE FROM ${sql.table(m.table)} WHERE ${sql.ref(m.group)} = ${id} AND ${sql.ref(m.member)} IN (${sql.join([...removed])}) AND EXISTS (SELECT 1 FROM scim_u))`);
    }
    const inserted: RawBuilder<unknown>[] = [];
    for (const [index, element] of added.entries()) {
      const columns = [m.group, m.member, ...(m.typeColumn === undefined ? [] : [m.typeColumn.column])];
      const type = types.find((t) => t.toLowerCase() === element.type.toLowerCase()) ?? element.type;
      const values = [sql.ref(`scim_u.${ID}`), sql`${element.value}`, ...(m.typeColumn === undefined ? [] : [sql`${memberTypeValue(m, type)}`])];
      const returned = sql.join([sql`${sql.ref(m.member)} AS v`, m.typeColumn === undefined ? sql`NULL AS k` : sql`${sql.ref(m.typeColumn.column)} AS k`]);
      ctes.push(sql`${sql.id(`scim_i${index}`)} AS (INSERT INTO ${sql.table(m.table)} (${sql.join(columns.map((c) => sql.ref(c)))}) SELECT ${sql.join(values)} FROM scim_u ON CONFLICT DO NOTHING RETURNING ${returned})`);
      inserted.push(sql`SELECT v, k FROM ${sql.id(`scim_i${index}`)}`);
    }
    const fresh = inserted.length === 0 ? sql`NULL` : (() => {
      const rows = memberElements(m, 'scim_a', 'v', m.typeColumn === undefined ? undefined : 'k');
      return sql`(SELECT ${rows.aggregate} FROM (${sql.join(inserted, sql` UNION ALL `)}) AS scim_a ${rows.joins})`;
    })();
    const row = (await sql<Record<string, unknown>>`WITH ${sql.join(ctes)} SELECT scim_u.*, ${fresh} AS ${sql.id(ADDED)} FROM scim_u`.execute(db)).rows[0];
    if (row === undefined) return undefined;
    const before = Array.isArray(row[MEMBERS]) ? (row[MEMBERS] as unknown[][]) : [];
    const after = [...before.filter((e) => !removed.has(String(e[0]))), ...(Array.isArray(row[ADDED]) ? (row[ADDED] as unknown[][]) : [])];
    return { ...row, [MEMBERS]: after };
  };

  /** The member elements of a row's JSON array, in id order, each id once. */
  const membersOfRow = (mapping: CompiledMapping, raw: unknown): MemberElement[] => {
    const m = mapping.table.members;
    if (m === undefined) return [];
    const entries = readJsonRows(raw).filter((e) => e[0] !== null && e[0] !== undefined).map((e) => ({ value: String(e[0]), d: e[1], k: e[2] }));
    entries.sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    const out: MemberElement[] = [];
    for (const e of entries) {
      if (out.length > 0 && out[out.length - 1]?.value === e.value) continue;
      out.push({ value: e.value, type: memberTypeOf(m, e.k), ...(e.d === null || e.d === undefined || e.d === '' ? {} : { display: String(e.d) }) });
    }
    return out;
  };

  /** The resources of rows; with their groups kept for `referrers` when the read carried them (`readList`). */
  const toResources = (mapping: CompiledMapping, rows: readonly Record<string, unknown>[], ctx?: StoreContext): ScimResource[] => {
    const group = rows[0] !== undefined && REFERRERS in rows[0] ? referrerSource(mapping, ctx) : undefined;
    const lookup = ctx?.referrers === undefined ? '' : lookupKey(ctx.referrers);
    return rows.map((row) => {
      const resource = rowToResource(mapping, row, mapping.table.members === undefined ? undefined : membersOfRow(mapping, row[MEMBERS]));
      if (group !== undefined) prefetched.set(resource, { lookup, referrers: readReferrers(group, row[REFERRERS]) });
      return resource;
    });
  };

  const readOne = async (q: Kysely<any> | Transaction<any>, mapping: CompiledMapping, id: string, ctx: StoreContext | undefined): Promise<ScimResource | undefined> => {
    if (!acceptsId(mapping, id)) return undefined;
    tenantOf(mapping, ctx);
    const group = referrerSource(mapping, ctx);
    if (group !== undefined) tenantOf(group, ctx);
    const result = await shapes.run(q, `get ${mapping.resourceType} ${group?.resourceType ?? ''}`, [id, ctx?.tenant ?? ''], (key, tenant) =>
      sql<Record<string, unknown>>`SELECT ${listWith(mapping, group, tenant)} FROM ${from(mapping)} WHERE ${idRef(mapping)} = ${key} AND ${tenantIs(mapping, tenant)}`,
    );
    const row = result.rows[0];
    if (row === undefined) return undefined;
    return toResources(mapping, [row], ctx)[0];
  };

  /** The columns a resource writes, or the refusal of an attribute the mapping does not keep. */
  const rowOf = (mapping: CompiledMapping, resource: ScimResource, ctx: StoreContext): { ok: true; columns: Record<string, unknown> } | { ok: false; detail: string } => {
    const { columns, rest } = resourceToRow(mapping, resource, dialect);
    if (mapping.table.json !== undefined) {
      columns[mapping.table.json] = Object.keys(rest).length === 0 ? null : JSON.stringify(rest);
    } else {
      const paths = restPaths(rest);
      if (paths.length > 0) {
        if (policy === 'reject') {
          return { ok: false, detail: `This service does not keep ${paths.map((p) => `'${p}'`).join(', ')} of a ${mapping.resourceType} (no column is mapped to it); remove it from the request` };
        }
        for (const path of paths) {
          const ignored: IgnoredAttribute = { resourceType: mapping.resourceType, id: resource.id, path, ...(ctx.tenant === undefined ? {} : { tenant: ctx.tenant }) };
          log('warn', `@scimkit/sql: attribute not kept (no column is mapped to it): ${path}`, { ...ignored });
          try {
            options.onIgnored?.(ignored);
          } catch {
            // A hook never changes an answer.
          }
        }
      }
    }
    if (mapping.table.tenant !== undefined) columns[mapping.table.tenant] = ctx.tenant ?? '';
    return { ok: true, columns };
  };

  /**
   * The refusal of a member whose type the join table does not keep (a group, without a nested-group
   * `typeColumn`): never ignored, whatever the unmapped policy, since the row would name another table.
   */
  const foreignMember = (mapping: CompiledMapping, resource: ScimResource): string | undefined => {
    const m = mapping.table.members;
    if (m === undefined) return undefined;
    const kept = memberTypes(m);
    const list = Array.isArray(resource['members']) ? (resource['members'] as Record<string, unknown>[]) : [];
    const foreign = list.find((e) => typeof e['type'] === 'string' && !kept.some((type) => type.toLowerCase() === (e['type'] as string).toLowerCase()));
    if (foreign === undefined) return undefined;
    return `This service keeps ${kept.join(' and ')} members of a ${mapping.resourceType}, not ${String(foreign['type'])} members ('${String(foreign['value'])}'): it has no nested-group mapping`;
  };

  /** The members of a resource or a change, once each: their id and resource type. */
  const memberRows = (mapping: CompiledMapping, elements: unknown): { value: string; type: string }[] => {
    const m = mapping.table.members;
    if (m === undefined || !Array.isArray(elements)) return [];
    const fallback = memberTypes(m)[0] as string;
    const seen = new Set<string>();
    const out: { value: string; type: string }[] = [];
    for (const e of elements as Record<string, unknown>[]) {
      const value = e['value'];
      if (typeof value !== 'string' || seen.has(value)) continue;
      seen.add(value);
      out.push({ value, type: typeof e['type'] === 'string' ? e['type'] : fallback });
    }
    return out;
  };

  const insertMembers = async (trx: Transaction<any>, mapping: CompiledMapping, groupId: string, members: readonly { value: string; type: string }[], skipPresent = false) => {
    const m = mapping.table.members;
    if (m === undefined || members.length === 0) return;
    const types = memberTypes(m);
    for (let i = 0; i < members.length; i += 500) {
      const rows = members.slice(i, i + 500).map(({ value, type }) => ({
        [m.group]: groupId,
        [m.member]: value,
        ...(m.typeColumn === undefined ? {} : { [m.typeColumn.column]: memberTypeValue(m, types.find((t) => t.toLowerCase() === type.toLowerCase()) ?? type) }),
        ...(m.source === undefined ? {} : { [m.source.column]: m.source.value }),
      }));
      const insert = trx.insertInto(m.table).values(rows);
      if (!skipPresent) await insert.execute();
      // MySQL: a no-op update of a duplicate, not INSERT IGNORE, which would also pass over a foreign-key failure.
      else if (name === 'mysql') await insert.onDuplicateKeyUpdate({ [m.member]: sql.ref(`${m.table}.${m.member}`) }).execute();
      else await insert.onConflict((conflict) => conflict.doNothing()).execute();
    }
  };

  const ownedMembers = (mapping: CompiledMapping) => {
    const m = mapping.table.members;
    return m?.source === undefined ? sql<boolean>`(1 = 1)` : sql<boolean>`(${sql.ref(m.source.column)} = ${m.source.value})`;
  };

  /** Writes the member rows of a replace: the element changes when the core gives them, else the whole list. */
  const writeMembers = async (trx: Transaction<any>, mapping: CompiledMapping, groupId: string, resource: ScimResource, ctx: WriteContext) => {
    const m = mapping.table.members;
    if (m === undefined) return;
    const change = ctx.changes?.find((c) => c.attribute.toLowerCase() === 'members');
    if (change !== undefined) {
      const removed = change.removed.map((e) => e['value']).filter((v): v is string => typeof v === 'string');
      if (removed.length > 0) {
        await sql`DELETE FROM ${sql.table(m.table)} WHERE ${sql.ref(m.group)} = ${groupId} AND ${sql.ref(m.member)} IN (${sql.join(removed)}) AND ${ownedMembers(mapping)}`.execute(trx);
      }
      await insertMissing(trx, mapping, groupId, memberRows(mapping, change.added));
      return;
    }
    await sql`DELETE FROM ${sql.table(m.table)} WHERE ${sql.ref(m.group)} = ${groupId} AND ${ownedMembers(mapping)}`.execute(trx);
    await insertMissing(trx, mapping, groupId, memberRows(mapping, resource['members']));
  };

  /** Inserts member rows, leaving a row already there (the join table's primary key or unique index on group and member) as it is. */
  const insertMissing = async (trx: Transaction<any>, mapping: CompiledMapping, groupId: string, members: readonly { value: string; type: string }[]) => {
    await insertMembers(trx, mapping, groupId, members, true);
  };

  /**
   * For each unique attribute the resource has a text value of: its column in the row aliased
   * `alias`, and the SQL test that the row holds the value there, ignoring case and Unicode
   * normalization when `caseExact` is false (the database's own index might not), as a function of
   * its `operands` (the values it compares with, so that a statement shape can bind them). The test
   * may find more than a clash (MySQL's `LOWER`): `uniqueClash` confirms each row in JavaScript.
   * The SQL is built only when asked (`sql()`): a write whose statement is kept by shape needs the
   * operands alone.
   */
  // Whether the dialect folds (or lower-cases) text at all: that depends on the dialect alone, not the column.
  const folds = dialect.foldKey(sql`x`) !== undefined;
  const lowers = dialect.lower(sql`x`) !== undefined;
  const uniqueTests = (mapping: CompiledMapping, resource: ScimResource, ctx: WriteContext, alias: string) => {
    const tests: { unique: WriteContext['unique'][number]; value: string; exact: boolean; operands: unknown[]; sql: () => { column: RawBuilder<unknown>; test: (...operands: unknown[]) => RawBuilder<boolean> } }[] = [];
    for (const unique of ctx.unique) {
      const attribute = mapping.attributes.find((a) => a.element === undefined && a.keys.length === 1 && a.keys[0]?.toLowerCase() === unique.path.toLowerCase());
      const value = resource[unique.path];
      if (attribute === undefined || typeof value !== 'string') continue;
      // An equality on the column or its key column (an index probe), not a narrowing by LOWER().
      const entry = { unique, value, exact: unique.caseExact || attribute.key !== undefined };
      const column = () => col(alias, attribute.column);
      if (unique.caseExact) {
        tests.push({ ...entry, operands: [value], sql: () => ({ column: column(), test: (v) => sql<boolean>`${column()} = ${v}` }) });
        continue;
      }
      const key = attribute.key;
      const folded = key !== undefined ? () => col(alias, key) : folds ? () => dialect.foldKey(column()) as RawBuilder<unknown> : undefined;
      if (folded !== undefined) tests.push({ ...entry, operands: [comparisonKey(value, false)], sql: () => ({ column: column(), test: (k) => sql<boolean>`${folded()} = ${k}` }) });
      else if (lowers) {
        const forms = [...new Set([value.normalize('NFC').toLowerCase(), value.normalize('NFD').toLowerCase()])];
        tests.push({ ...entry, operands: forms, sql: () => ({ column: column(), test: (...f) => sql<boolean>`${dialect.lower(column())} IN (${sql.join(f)})` }) });
      } else tests.push({ ...entry, operands: [value.toLowerCase()], sql: () => ({ column: column(), test: (v) => sql<boolean>`lower(${column()}) = ${v}` }) });
    }
    return tests;
  };

  /** A clash on a unique attribute the database's index might not catch (caseExact false), before writing. */
  const uniqueClash = async (q: Transaction<any>, mapping: CompiledMapping, resource: ScimResource, ctx: WriteContext, self?: string): Promise<{ attribute: string; id: string } | undefined> => {
    for (const { unique, value, operands, sql: tested } of uniqueTests(mapping, resource, ctx, 't')) {
      const { column, test } = tested();
      const others = self === undefined ? sql`` : sql` AND ${idRef(mapping)} <> ${self}`;
      const found = await sql<{ id: unknown; v: unknown }>`SELECT ${idRef(mapping)} AS id, ${column} AS v FROM ${from(mapping)} WHERE ${test(...operands)} AND ${tenantOf(mapping, ctx)}${others}`.execute(q);
      const clash = found.rows.find((row) => typeof row.v === 'string' && comparisonKey(row.v, unique.caseExact) === comparisonKey(value, unique.caseExact));
      if (clash !== undefined) return { attribute: unique.path, id: String(clash.id) };
    }
    return undefined;
  };

  /**
   * The condition of a one-statement write, as a statement shape: no other row (than `self`) holds a
   * unique value of the resource, by the same tests as `uniqueClash` (`NOT EXISTS`, one index probe
   * each). It may refuse more than a clash; the write then takes the transaction path, which tells.
   * `key` names its shape; `values` are its values, `build` makes it of them (after `offset` others).
   */
  const noClash = (mapping: CompiledMapping, resource: ScimResource, ctx: WriteContext) => {
    const tests = uniqueTests(mapping, resource, ctx, 'scim_o');
    return {
      key: tests.map((t) => `${t.unique.path}:${t.operands.length}`).join(','),
      values: tests.flatMap((t) => t.operands),
      build: (values: readonly unknown[], tenant: unknown, self: unknown): RawBuilder<boolean> => {
        const others = self === undefined ? sql`` : sql` AND ${idRef(mapping, 'scim_o')} <> ${self}`;
        let at = 0;
        const parts = tests.map((t) => {
          const operands = values.slice(at, (at += t.operands.length));
          return sql<boolean>`NOT EXISTS (SELECT 1 FROM ${sql.table(mapping.table.table)} AS ${sql.id('scim_o')} WHERE ${t.sql().test(...operands)} AND ${tenantIs(mapping, tenant, 'scim_o.')}${others})`;
        });
        return parts.length === 0 ? sql<boolean>`(1 = 1)` : sql<boolean>`${sql.join(parts, sql` AND `)}`;
      },
    };
  };

  /**
   * Whether a write can be one statement: no events are kept with it (their INSERT is in the
   * write's transaction) and no member rows are written with it. PostgreSQL and SQLite return the
   * row written (`RETURNING`); MySQL has none, so its write is one statement (atomic on its own,
   * without a transaction) and the row is read after it. A MySQL server that refuses a write
   * reading its own table in a subquery (error 1093; MariaDB allows it) takes the transaction
   * path from then on.
   */
  const oneStatement = (ctx: WriteContext, members: boolean): boolean => ctx.events === undefined && !members && (name !== 'mysql' || selfSubquery.allowed);
  /**
   * MySQL: whether the write's uniqueness tests are equalities an index answers (a `caseExact`
   * column, or a key column). Without a key column a `caseExact: false` test narrows by `LOWER()`,
   * a scan of the table, and InnoDB takes a shared lock on every row an `INSERT … SELECT` or an
   * `UPDATE`'s subquery reads (REPEATABLE READ): concurrent writes would then queue behind each
   * other and deadlock. Such a write stays a transaction, whose test is a consistent read, without locks.
   */
  const probesOnly = (mapping: CompiledMapping, resource: ScimResource, ctx: WriteContext): boolean => name !== 'mysql' || uniqueTests(mapping, resource, ctx, 'scim_o').every((t) => t.exact);
  const selfSubquery = { allowed: true };
  /** Runs a one-statement write; undefined (and the transaction path from then on) when MySQL refuses its self-referencing subquery. */
  const refusedSelfSubquery = (error: unknown): boolean => {
    const e = error as { code?: unknown; errno?: unknown } | null;
    if (name !== 'mysql' || e === null || typeof e !== 'object' || (e.code !== 'ER_UPDATE_TABLE_USED' && e.errno !== 1093)) return false;
    selfSubquery.allowed = false;
    log('info', '@scimkit/sql: this MySQL server refuses a write whose condition reads its own table; writes run in a transaction');
    return true;
  };

  /**
   * A resource as written, for a MySQL one-statement write whose row another call deleted before it
   * could be read back: the values it wrote, as the row codec reads them.
   */
  const writtenResource = (mapping: CompiledMapping, id: string, columns: Record<string, unknown>, ctx: WriteContext): ScimResource => {
    const ms = (value: unknown) => (value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value);
    const version = columns[mapping.table.version.column];
    const modified = mapping.table.lastModified === undefined ? (mapping.table.version.kind === 'timestamp' ? version : undefined) : columns[mapping.table.lastModified];
    const row = { ...columns, [ID]: id, [VERSION]: ms(version), [CREATED]: mapping.table.created === undefined ? null : ms(columns[mapping.table.created]), [MODIFIED]: modified === undefined ? null : ms(modified) };
    return toResources(mapping, [row], ctx)[0] as ScimResource;
  };

  /**
   * A create as one statement (`oneStatement`), compiled once per shape: `INSERT … SELECT <values>
   * WHERE <noClash> RETURNING <the row>` (MySQL: without RETURNING, then the row read by its id).
   * Undefined when it wrote nothing (a unique value taken): the transaction path then adopts the
   * row or refuses.
   */
  const createInOne = async (mapping: CompiledMapping, resource: ScimResource, row: Record<string, unknown>, ctx: WriteContext): Promise<ScimResource | undefined> => {
    const columns = { ...row };
    stamp(mapping, columns, undefined, true);
    const generate = mapping.table.id.generate ?? 'core';
    if (generate !== 'database') columns[mapping.table.id.column] = typeof generate === 'function' ? generate(resource) : resource.id;
    const names = Object.keys(columns);
    const guard = noClash(mapping, resource, ctx);
    const group = name !== 'mysql' ? referrerSource(mapping, ctx) : undefined;
    if (group !== undefined) tenantOf(group, ctx);
    const values = [ctx.tenant ?? '', ...names.map((c) => columns[c]), ...guard.values];
    let inserted;
    try {
      inserted = await shapes.run(db, `create ${mapping.resourceType} ${group?.resourceType ?? ''} ${names.join(',')} ${guard.key}`, values, (tenant, ...rest) => {
        // PostgreSQL's RETURNING names the table's alias (the select list of every read); SQLite's cannot; MySQL has none.
        const target = name === 'postgres' ? from(mapping) : sql.table(mapping.table.table);
        const written = sql.join(rest.slice(0, names.length).map((v) => sql`${v}`));
        const insert = sql`INSERT INTO ${target} (${sql.join(names.map((c) => sql.ref(c)))}) SELECT ${written}`;
        const condition = guard.build(rest.slice(names.length), tenant, undefined);
        if (name === 'mysql') return sql<Record<string, unknown>>`${insert} FROM DUAL WHERE ${condition}`;
        return sql<Record<string, unknown>>`${insert} WHERE ${condition} RETURNING ${returningList(mapping, group, tenant)}`;
      });
    } catch (error) {
      if (refusedSelfSubquery(error)) return undefined;
      throw error;
    }
    if (name === 'mysql') {
      if (Number(inserted.numAffectedRows ?? 0) === 0) return undefined;
      const id = generate === 'database' ? String(inserted.insertId) : String(columns[mapping.table.id.column]);
      return (await readOne(db, mapping, id, ctx)) ?? writtenResource(mapping, id, columns, ctx);
    }
    const created = inserted.rows[0];
    return created === undefined ? undefined : toResources(mapping, [created], ctx)[0];
  };

  /**
   * A replace as one statement (`oneStatement`), compiled once per shape: the compare-and-swap
   * `UPDATE … WHERE <id> AND <version> AND <noClash> RETURNING <the row>` (MySQL: without RETURNING,
   * then the row read by its id). Undefined when it matched no row (gone, another version, a unique
   * value taken): the transaction path then tells which.
   */
  const replaceInOne = async (mapping: CompiledMapping, id: string, resource: ScimResource, row: Record<string, unknown>, expected: number, ctx: WriteContext): Promise<ScimResource | typeof NOT_FOUND | undefined> => {
    const columns = { ...row };
    stamp(mapping, columns, expected, false);
    const names = Object.keys(columns);
    const guard = noClash(mapping, resource, ctx);
    const group = name !== 'mysql' ? referrerSource(mapping, ctx) : undefined;
    if (group !== undefined) tenantOf(group, ctx);
    const values = [id, expected, ctx.tenant ?? '', ...names.map((c) => columns[c]), ...guard.values];
    // SQLite's RETURNING cannot name an alias of the table: its UPDATE names the table itself.
    const alias = name === 'sqlite' ? mapping.table.table : 't';
    const target = name === 'sqlite' ? sql.table(mapping.table.table) : from(mapping);
    let updated;
    try {
      updated = await shapes.run(db, `replace ${mapping.resourceType} ${group?.resourceType ?? ''} ${names.join(',')} ${guard.key}`, values, (key, version, tenant, ...rest) => {
        const assignments = sql.join(names.map((column, i) => sql`${sql.ref(column)} = ${rest[i]}`));
        const cas = sql`UPDATE ${target} SET ${assignments} WHERE ${idRef(mapping, alias)} = ${key} AND ${versionExpr(mapping, alias)} = ${version} AND ${tenantIs(mapping, tenant, `${alias}.`)} AND ${guard.build(rest.slice(names.length), tenant, key)}`;
        if (name === 'mysql') return sql<Record<string, unknown>>`${cas}`;
        return sql<Record<string, unknown>>`${cas} RETURNING ${returningList(mapping, group, tenant)}`;
      });
    } catch (error) {
      if (refusedSelfSubquery(error)) return undefined;
      throw error;
    }
    if (name === 'mysql') {
      if (Number(updated.numAffectedRows ?? 0) === 0) return undefined;
      // Deleted between the UPDATE and this read: as if the delete came first (the same end state).
      return (await readOne(db, mapping, id, ctx)) ?? NOT_FOUND;
    }
    const written = updated.rows[0];
    return written === undefined ? undefined : toResources(mapping, [written], ctx)[0];
  };

  /**
   * Whether the row `id` is the application's own, not yet SCIM's: its `source` column says another
   * owner; without one, its externalId column is empty and the create brings an externalId (which
   * then marks the row as SCIM's, so a second create of the name is a 409).
   */
  const adoptable = async (q: Transaction<any>, mapping: CompiledMapping, id: string, resource: ScimResource): Promise<boolean> => {
    const source = mapping.table.source;
    const external = mapping.attributes.find((a) => a.keys.length === 1 && a.keys[0] === 'externalId');
    if (source === undefined && (typeof resource['externalId'] !== 'string' || resource['externalId'] === '')) return false;
    const column = source?.column ?? external?.column;
    if (column === undefined) return false;
    const found = await sql<{ v: unknown }>`SELECT ${sql.ref(`t.${column}`)} AS v FROM ${from(mapping)} WHERE ${idRef(mapping)} = ${id}`.execute(q);
    const value = found.rows[0]?.v;
    return source !== undefined ? value === null || value === undefined || String(value) !== String(source.value) : value === null || value === undefined || value === '';
  };

  const nextVersion = (mapping: CompiledMapping, previous?: number): unknown => {
    if (mapping.table.version.kind === 'counter') return previous === undefined ? 1 : previous + 1;
    return dialect.timestamp(Math.max(Date.now(), (previous ?? 0) + 1));
  };

  const stamp = (mapping: CompiledMapping, columns: Record<string, unknown>, previous: number | undefined, creating: boolean) => {
    columns[mapping.table.version.column] = nextVersion(mapping, previous);
    const now = mapping.table.version.kind === 'timestamp' ? columns[mapping.table.version.column] : dialect.timestamp(Date.now());
    if (mapping.table.lastModified !== undefined && mapping.table.lastModified !== mapping.table.version.column) columns[mapping.table.lastModified] = now;
    if (creating && mapping.table.created !== undefined) columns[mapping.table.created] = now;
    if (creating && mapping.table.source !== undefined) columns[mapping.table.source.column] = mapping.table.source.value;
  };

  const refusal = (mapping: CompiledMapping, error: unknown, ctx: WriteContext): StoreWriteResult | undefined => {
    const empty = notNullViolation(error);
    if (empty !== undefined) {
      const path = mapping.attributes.find((a) => a.column.toLowerCase() === empty.toLowerCase())?.path ?? empty;
      return { ok: false, reason: 'invalidValue', detail: `This service needs a value for '${path}' (its column cannot be empty)` };
    }
    const column = uniqueViolation(error);
    if (column === undefined) return undefined;
    const attribute =
      mapping.attributes.find((a) => column !== '' && a.column.toLowerCase() === column.toLowerCase() && ctx.unique.some((u) => u.path.toLowerCase() === a.path.toLowerCase()))?.path ??
      mapping.attributes.find((a) => column !== '' && a.column.toLowerCase() === column.toLowerCase())?.path ??
      ctx.unique[0]?.path ??
      'id';
    return { ok: false, reason: 'uniqueness', attribute };
  };

  const create = async (resourceType: string, resource: ScimResource, ctx: WriteContext): Promise<StoreWriteResult> => {
    const mapping = mappingOf(resourceType);
    if (mapping === undefined) throw new Error(`@scimkit/sql: no mapping for resource type '${resourceType}'`);
    tenantOf(mapping, ctx);
    const row = rowOf(mapping, resource, ctx);
    if (!row.ok) return { ok: false, reason: 'invalidValue', detail: row.detail };
    const foreign = foreignMember(mapping, resource);
    if (foreign !== undefined) return { ok: false, reason: 'invalidValue', detail: foreign };
    try {
      if (oneStatement(ctx, memberRows(mapping, resource['members']).length > 0) && probesOnly(mapping, resource, ctx)) {
        const created = await createInOne(mapping, resource, row.columns, ctx);
        if (created !== undefined) return { ok: true, resource: created };
      }
      return await db.transaction().execute(async (trx) => {
        const clash = await uniqueClash(trx, mapping, resource, ctx);
        if (clash !== undefined) {
          if (options.existingRows === 'adopt' && (await adoptable(trx, mapping, clash.id, resource))) {
            const columns = { ...row.columns };
            stamp(mapping, columns, undefined, false);
            if (mapping.table.source !== undefined) columns[mapping.table.source.column] = mapping.table.source.value;
            await trx.updateTable(mapping.table.table).set(columns).where(sql.ref(mapping.table.id.column), '=', clash.id).execute();
            await writeMembers(trx, mapping, clash.id, resource, ctx);
            log('info', `@scimkit/sql: adopted an existing ${resourceType} row by ${clash.attribute}`, { id: clash.id, attribute: clash.attribute, ...(ctx.tenant === undefined ? {} : { tenant: ctx.tenant }) });
            const adopted = await readOne(trx, mapping, clash.id, ctx);
            if (adopted === undefined) throw new Error('@scimkit/sql: the adopted row vanished');
            await writeSqlEvents(trx, ctx.events?.(adopted), partitions);
            return { ok: true, resource: adopted };
          }
          log('info', `@scimkit/sql: ${resourceType} create refused: ${clash.attribute} is taken by an existing row`, { id: clash.id, policy: options.existingRows ?? 'reject' });
          return { ok: false, reason: 'uniqueness', attribute: clash.attribute } as const;
        }
        const columns = { ...row.columns };
        stamp(mapping, columns, undefined, true);
        const generate = mapping.table.id.generate ?? 'core';
        let id = resource.id;
        if (typeof generate === 'function') id = generate(resource);
        if (generate !== 'database') columns[mapping.table.id.column] = id;
        if (generate === 'database') {
          if (name === 'mysql') {
            const inserted = await trx.insertInto(mapping.table.table).values(columns).executeTakeFirst();
            id = String(inserted.insertId);
          } else {
            const inserted = await trx.insertInto(mapping.table.table).values(columns).returning(sql.ref(mapping.table.id.column).as('id')).executeTakeFirstOrThrow();
            id = String((inserted as { id: unknown }).id);
          }
        } else {
          await trx.insertInto(mapping.table.table).values(columns).execute();
        }
        await insertMembers(trx, mapping, id, memberRows(mapping, resource['members']));
        const created = await readOne(trx, mapping, id, ctx);
        if (created === undefined) throw new Error('@scimkit/sql: the created row could not be read back');
        await writeSqlEvents(trx, ctx.events?.(created), partitions);
        return { ok: true, resource: created };
      });
    } catch (error) {
      const refused = refusal(mapping, error, ctx);
      if (refused !== undefined) return refused;
      throw error;
    }
  };

  const replace = async (resourceType: string, id: string, resource: ScimResource, expectedVersion: string, ctx: WriteContext): Promise<StoreWriteResult> => {
    const mapping = mappingOf(resourceType);
    if (mapping === undefined || !acceptsId(mapping, id)) return { ok: false, reason: 'notFound' };
    const scope = tenantOf(mapping, ctx);
    const row = rowOf(mapping, resource, ctx);
    if (!row.ok) return { ok: false, reason: 'invalidValue', detail: row.detail };
    const foreign = foreignMember(mapping, resource);
    if (foreign !== undefined) return { ok: false, reason: 'invalidValue', detail: foreign };
    const expected = versionNumber(expectedVersion);
    const change = ctx.changes?.find((c) => c.attribute.toLowerCase() === 'members');
    try {
      if (name === 'postgres' && expected !== undefined && change !== undefined && mapping.table.members !== undefined && mapping.table.members.source === undefined && ctx.unique.length === 0 && change.added.length <= ONE_STATEMENT_MEMBERS) {
        const columns = { ...row.columns };
        stamp(mapping, columns, expected, false);
        const assignments = sql.join(Object.entries(columns).map(([column, value]) => sql`${sql.ref(column)} = ${value}`));
        const written = await casWithMembers(mapping, id, sql`UPDATE ${from(mapping)} SET ${assignments} WHERE ${idRef(mapping)} = ${id} AND ${versionExpr(mapping)} = ${expected} AND ${scope}`, change);
        if (written === undefined) throw NOT_SWAPPED;
        return { ok: true, resource: toResources(mapping, [written], ctx)[0] as ScimResource };
      }
      if (expected !== undefined && mapping.table.members === undefined && oneStatement(ctx, false) && probesOnly(mapping, resource, ctx)) {
        const replaced = await replaceInOne(mapping, id, resource, row.columns, expected, ctx);
        if (replaced === NOT_FOUND) return { ok: false, reason: 'notFound' };
        if (replaced !== undefined) return { ok: true, resource: replaced };
      }
      return await db.transaction().execute(async (trx) => {
        const clash = await uniqueClash(trx, mapping, resource, ctx, id);
        if (clash !== undefined) return { ok: false, reason: 'uniqueness', attribute: clash.attribute } as const;
        if (expected === undefined) return (await exists(trx, mapping, id, scope)) ? { ok: false, reason: 'versionMismatch' } as const : { ok: false, reason: 'notFound' } as const;
        // Member rows first (the change's rows, one INSERT), so that the row read with the compare-and-swap shows them.
        await writeMembers(trx, mapping, id, resource, ctx);
        const columns = { ...row.columns };
        stamp(mapping, columns, expected, false);
        // The compare-and-swap: one UPDATE … WHERE <version> = expected, returning the row as written
        // (with its members) on PostgreSQL; MySQL (no RETURNING) and SQLite (whose RETURNING cannot
        // name the table's alias; its reads are in-process) read it back.
        const assignments = sql.join(Object.entries(columns).map(([column, value]) => sql`${sql.ref(column)} = ${value}`));
        const cas = sql`UPDATE ${from(mapping)} SET ${assignments} WHERE ${idRef(mapping)} = ${id} AND ${versionExpr(mapping)} = ${expected} AND ${scope}`;
        let written: Record<string, unknown> | undefined;
        if (name !== 'postgres') {
          const updated = await cas.execute(trx);
          if (Number(updated.numAffectedRows ?? 0) > 0) written = (await sql<Record<string, unknown>>`SELECT ${readList(mapping, ctx)} FROM ${from(mapping)} WHERE ${idRef(mapping)} = ${id}`.execute(trx)).rows[0];
        } else {
          written = (await sql<Record<string, unknown>>`${cas} RETURNING ${readList(mapping, ctx)}`.execute(trx)).rows[0];
        }
        // Not swapped: the member rows written above are rolled back.
        if (written === undefined) throw NOT_SWAPPED;
        const replaced = toResources(mapping, [written], ctx)[0] as ScimResource;
        await writeSqlEvents(trx, ctx.events?.(replaced), partitions);
        return { ok: true, resource: replaced };
      });
    } catch (error) {
      // Not swapped, or a member row refused because the row is gone (its foreign key): which one, seen after the rollback.
      const present = await exists(db, mapping, id, scope);
      if (!present) return { ok: false, reason: 'notFound' };
      if (error === NOT_SWAPPED) return { ok: false, reason: 'versionMismatch' };
      const refused = refusal(mapping, error, ctx);
      if (refused !== undefined) return refused;
      throw error;
    }
  };

  const exists = async (q: Kysely<any> | Transaction<any>, mapping: CompiledMapping, id: string, scope: RawBuilder<boolean>): Promise<boolean> => {
    const found = await sql`SELECT 1 AS one FROM ${from(mapping)} WHERE ${idRef(mapping)} = ${id} AND ${scope}`.execute(q);
    return found.rows.length > 0;
  };

  const remove = async (resourceType: string, id: string, expectedVersion?: string, ctx?: DeleteContext): Promise<StoreDeleteResult> => {
    const mapping = mappingOf(resourceType);
    if (mapping === undefined || !acceptsId(mapping, id)) return { ok: false, reason: 'notFound' };
    const scope = tenantOf(mapping, ctx);
    const expected = expectedVersion === undefined ? undefined : versionNumber(expectedVersion);
    return db.transaction().execute(async (trx) => {
      if (!(await exists(trx, mapping, id, scope))) return { ok: false, reason: 'notFound' } as const;
      if (expectedVersion !== undefined) {
        const current = await sql<{ v: unknown }>`SELECT ${versionExpr(mapping)} AS v FROM ${from(mapping)} WHERE ${idRef(mapping)} = ${id} AND ${scope}`.execute(trx);
        if (expected === undefined || Number(current.rows[0]?.v) !== expected) return { ok: false, reason: 'versionMismatch' } as const;
      }
      // Groups holding the deleted resource as a member change: their version moves, their rows go.
      for (const group of mappings.values()) {
        const m = group.table.members;
        if (m === undefined || !memberTypes(m).includes(mapping.resourceType)) continue;
        const typed = m.typeColumn === undefined ? sql`` : sql` AND ${sql.ref(m.typeColumn.column)} = ${memberTypeValue(m, mapping.resourceType)}`;
        const holders = sql`SELECT ${sql.ref(m.group)} FROM ${sql.table(m.table)} WHERE ${sql.ref(m.member)} = ${id}${typed}`;
        const columns: Record<string, unknown> = {};
        if (group.table.version.kind === 'timestamp') columns[group.table.version.column] = dialect.timestamp(Date.now());
        else columns[group.table.version.column] = sql`${sql.ref(group.table.version.column)} + 1`;
        if (group.table.lastModified !== undefined && group.table.lastModified !== group.table.version.column) columns[group.table.lastModified] = dialect.timestamp(Date.now());
        if (name === 'mysql') {
          // MySQL cannot update a table while selecting from it in a subquery of the same statement's join table; read the ids first.
          const ids = (await holders.execute(trx)).rows.map((r) => Object.values(r as Record<string, unknown>)[0]);
          if (ids.length > 0) await trx.updateTable(group.table.table).set(columns).where(sql.ref(group.table.id.column), 'in', ids).execute();
        } else {
          await trx.updateTable(group.table.table).set(columns).where(sql<boolean>`${sql.ref(group.table.id.column)} IN (${holders})`).execute();
        }
        await sql`DELETE FROM ${sql.table(m.table)} WHERE ${sql.ref(m.member)} = ${id}${typed}`.execute(trx);
      }
      const m = mapping.table.members;
      if (m !== undefined) await sql`DELETE FROM ${sql.table(m.table)} WHERE ${sql.ref(m.group)} = ${id}`.execute(trx);
      // No table alias: MariaDB refuses one in a single-table DELETE.
      await sql`DELETE FROM ${sql.table(mapping.table.table)} WHERE ${sql.ref(mapping.table.id.column)} = ${id} AND ${tenantOf(mapping, ctx, '')}`.execute(trx);
      await writeSqlEvents(trx, ctx?.events?.([]), partitions);
      return { ok: true } as const;
    });
  };

  /** Each mapping's column resolver, made once (it depends on the mapping and the dialect alone). */
  const resolvers = new Map<CompiledMapping, ColumnResolver>();
  const resolverOf = (mapping: CompiledMapping): ColumnResolver => {
    let resolver = resolvers.get(mapping);
    if (resolver === undefined) resolvers.set(mapping, (resolver = mappedResolver(mapping, dialect, { alias: MEMBER_ALIAS })));
    return resolver;
  };
  const queryShapes = new QueryShapes(db);

  /**
   * A query whose filter and sort translate exactly, without a cursor, as the one statement of its
   * kind, compiled once per shape (query-shapes.ts): every match (no count), the count alone, or a
   * page with the count of every match (an uncorrelated subquery, counted once; a window
   * `count(*) OVER ()` would build every matching row before the LIMIT). The page by index (or a
   * top-N sort) is over the table's own columns, its select list (instants, members, groups) built
   * for the page's rows only, not for every row an OFFSET skips or a sort compares. Undefined when
   * the query is not exact in SQL.
   */
  const shapedQuery = async (mapping: CompiledMapping, q: StoreQuery, ctx: StoreContext | undefined): Promise<StoreQueryResult | undefined> => {
    tenantOf(mapping, ctx);
    const group = referrerSource(mapping, ctx);
    if (group !== undefined) tenantOf(group, ctx);
    const offset = Math.max(0, (q.startIndex ?? 1) - 1);
    const values = { tenant: ctx?.tenant ?? '', count: q.count ?? 0, offset };
    const kind = q.count === undefined ? 'all' : q.count === 0 ? 'count' : 'page';
    // SQLite's page numbers are written into the text (rowCount): part of its key there.
    const numbers = name === 'sqlite' && kind === 'page' ? `${Math.floor(values.count)}/${Math.floor(offset)}` : '';
    const key = `${kind}\u0000${mapping.resourceType}\u0000${group?.resourceType ?? ''}\u0000${numbers}`;
    const statement = queryShapes.compiled(q, key, values, (binder, slots) => shapedStatement(mapping, q, kind, group, binder, slots));
    if (statement === undefined) return undefined;
    const rows = (await db.executeQuery(statement)).rows as Record<string, unknown>[];
    if (kind === 'count') return { totalResults: Number(rows[0]?.['n'] ?? 0), resources: [] };
    if (kind === 'all') return { totalResults: rows.length, resources: toResources(mapping, rows, ctx) };
    // A page past the last match has no row to carry the count.
    if (rows.length > 0 || offset === 0) return { totalResults: rows.length > 0 ? Number(rows[0]?.[TOTAL]) : 0, resources: toResources(mapping, rows, ctx) };
    const counted = await shapedQuery(mapping, { ...q, count: 0 }, ctx);
    return { totalResults: counted?.totalResults ?? 0, resources: [] };
  };

  /** The statement of shapedQuery, its values taken through `binder` and `slots`. */
  const shapedStatement = (mapping: CompiledMapping, q: StoreQuery, kind: 'all' | 'count' | 'page', group: CompiledMapping | undefined, binder: ValueBinder, slots: QuerySlots): RawBuilder<unknown> | undefined => {
    const resolver = resolverOf(mapping);
    const facts = q.semantics.attribute;
    const filter = q.filter === undefined ? { where: sql<boolean>`(1 = 1)`, exact: true } : translateFilterWith(q.filter, { dialect, resolver, facts }, binder);
    const order = q.sort === undefined ? [] : translateSort(q.sort, { dialect, resolver, facts });
    if (!filter.exact || order === undefined) return undefined;
    const where = sql<boolean>`${tenantIs(mapping, slots.tenant)} AND ${filter.where}`;
    if (kind === 'count') return sql`SELECT count(*) AS n FROM ${from(mapping)} WHERE ${where}`;
    const ordered = sql`ORDER BY ${sql.join([...order, idRef(mapping)])}`;
    const list = listWith(mapping, group, slots.tenant);
    if (kind === 'all') return sql`SELECT ${list} FROM ${from(mapping)} WHERE ${where} ${ordered}`;
    const count = name === 'sqlite' ? rowCount(q.count ?? 0) : sql`${slots.count}`;
    const offset = name === 'sqlite' ? rowCount(Math.max(0, (q.startIndex ?? 1) - 1)) : sql`${slots.offset}`;
    const page = sql`(SELECT * FROM ${from(mapping)} WHERE ${where} ${ordered} LIMIT ${count} OFFSET ${offset}) AS ${sql.id('t')}`;
    return sql`SELECT ${list}, (SELECT count(*) FROM ${from(mapping)} WHERE ${where}) AS ${sql.id(TOTAL)} FROM ${page} ${ordered}`;
  };

  const query = async (resourceType: string, q: StoreQuery, ctx?: StoreContext): Promise<StoreQueryResult> => {
    const mapping = mappingOf(resourceType);
    if (mapping === undefined) return { totalResults: 0, resources: [] };
    if (q.cursor === undefined) {
      const shaped = await shapedQuery(mapping, q, ctx);
      if (shaped !== undefined) return shaped;
    }
    const scope = tenantOf(mapping, ctx);
    const resolver = resolverOf(mapping);
    const facts = q.semantics.attribute;
    const filter = q.filter === undefined ? { where: sql<boolean>`(1 = 1)`, exact: true, untranslated: [] as readonly string[] } : translateFilter(q.filter, { dialect, resolver, facts });
    const order = q.sort === undefined ? [] : translateSort(q.sort, { dialect, resolver, facts });
    const where = sql<boolean>`${scope} AND ${filter.where}`;
    if (q.cursor !== undefined && filter.exact && order !== undefined) return keysetPage(mapping, q, where, resolver, ctx);
    // Not exact in SQL: narrow in SQL, confirm with the core's predicate, batch by batch, bounded.
    log('info', `@scimkit/sql: ${resourceType} filter or sort not pushed down to SQL; rows are confirmed in batches`, {
      ...(filter.untranslated.length === 0 ? {} : { attributes: filter.untranslated }),
      ...(order === undefined && q.sort !== undefined ? { sortBy: q.sort.path.attr } : {}),
      ...(ctx?.requestId === undefined ? {} : { requestId: ctx.requestId }),
    });
    const matched: ScimResource[] = [];
    let scanned = 0;
    let after: string | undefined;
    for (;;) {
      const next = after === undefined ? sql`` : sql` AND ${idRef(mapping)} > ${after}`;
      const rows = (await sql<Record<string, unknown>>`SELECT ${readList(mapping, ctx)} FROM ${from(mapping)} WHERE ${where}${next} ORDER BY ${idRef(mapping)} LIMIT ${rowCount(batchSize)}`.execute(db)).rows;
      scanned += rows.length;
      for (const resource of toResources(mapping, rows, ctx)) if (q.semantics.matches(resource)) matched.push(resource);
      if (q.semantics.exhausted?.() === true) return { totalResults: matched.length, resources: [] };
      if (rows.length < batchSize) break;
      if (scanned >= maxScan) {
        const what = filter.untranslated.length > 0 ? filter.untranslated.map((p) => `'${p}'`).join(', ') : q.sort !== undefined ? `sortBy '${q.sort.path.attr}'` : 'the filter';
        log('warn', `@scimkit/sql: ${resourceType} query declined after ${scanned} rows`, { attributes: filter.untranslated });
        return {
          totalResults: 0,
          resources: [],
          declined: `This service cannot search by ${what} over more than ${maxScan} ${resourceType} rows (it is not a mapped column); add a condition on a mapped attribute such as userName`,
        };
      }
      after = String(rows[rows.length - 1]?.[ID]);
    }
    const sorted = q.semantics.compare === undefined ? matched : stableSort(matched, q.semantics.compare);
    if (q.cursor !== undefined && q.count !== undefined) {
      // Confirmed in JavaScript: the cursor is the offset into the confirmed, sorted matches.
      const at = /^o(\d{1,9})$/.exec(q.cursor);
      const start = at === null ? 0 : Number(at[1]);
      const page = sorted.slice(start, start + q.count);
      return {
        totalResults: sorted.length,
        resources: page,
        ...(start + q.count < sorted.length && q.count > 0 ? { nextCursor: `o${start + q.count}` } : {}),
        ...(start > 0 ? { previousCursor: `o${Math.max(0, start - q.count)}` } : {}),
      };
    }
    if (q.count === undefined) return { totalResults: sorted.length, resources: sorted };
    const start = Math.max(0, (q.startIndex ?? 1) - 1);
    return { totalResults: sorted.length, resources: sorted.slice(start, start + q.count) };
  };

  /** An RFC 9865 keyset page: after (or before) the cursor's row in the sort order, then the id. */
  const keysetPage = async (mapping: CompiledMapping, q: StoreQuery, where: RawBuilder<boolean>, resolver: ReturnType<typeof mappedResolver>, ctx: StoreContext | undefined): Promise<StoreQueryResult> => {
    const count = q.count ?? 0;
    const parts = q.sort === undefined ? undefined : sortParts(q.sort, { dialect, resolver, facts: q.semantics.attribute });
    const position = q.cursor === '' || q.cursor === undefined ? undefined : decodeCursor(q.cursor);
    const direction = position?.direction ?? 'n';
    const counted = await sql<{ n: unknown }>`SELECT count(*) AS n FROM ${from(mapping)} WHERE ${where}`.execute(db);
    const total = Number(counted.rows[0]?.n ?? 0);
    if (count === 0) return { totalResults: total, resources: [] };
    const after = position === undefined ? sql`` : sql` AND ${beyond(position, idRef(mapping), parts)}`;
    const extra = parts === undefined ? sql`` : sql`, ${parts.missing} AS ${sql.id('__scim_missing')}, ${parts.key} AS ${sql.id('__scim_key')}`;
    const fetched = (await sql<Record<string, unknown>>`SELECT ${readList(mapping, ctx)}${extra} FROM ${from(mapping)} WHERE ${where}${after} ${keysetOrder(direction, idRef(mapping), parts)} LIMIT ${rowCount(count + 1)}`.execute(db)).rows;
    const more = fetched.length > count;
    const rows = fetched.slice(0, count);
    if (direction === 'p') rows.reverse();
    const at = (row: Record<string, unknown> | undefined, to: 'n' | 'p') =>
      row === undefined ? undefined : encodeCursor({ direction: to, ...(parts === undefined ? {} : { missing: Number(row['__scim_missing']), key: row['__scim_key'] }), id: String(row[ID]) });
    const first = rows[0];
    const last = rows[rows.length - 1];
    // Forward: a next page when a row beyond this page exists; a previous one unless this is the first page.
    // Backward: a previous page when a row before this page exists; the next page always (the cursor's row follows).
    const next = direction === 'n' ? (more ? at(last, 'n') : undefined) : (at(last, 'n') ?? (position === undefined ? undefined : encodeCursor({ ...position, direction: 'n' })));
    const previous = direction === 'n' ? (position === undefined ? undefined : (at(first, 'p') ?? encodeCursor({ ...position, direction: 'p' }))) : more ? at(first, 'p') : undefined;
    return {
      totalResults: total,
      resources: toResources(mapping, rows, ctx),
      ...(next === undefined ? {} : { nextCursor: next }),
      ...(previous === undefined ? {} : { previousCursor: previous }),
    };
  };

  /**
   * The groups holding each of `resources` as a member, for a page of users in one statement (the
   * computed `User.groups`, RFC 7643 §4.1.2): the optional `referrers` of the store contract. The
   * groups come without their member lists, which the core does not read.
   */
  const referrers = async (lookup: { readonly resourceType: string; readonly attribute: string }, resources: readonly ScimResource[], ctx?: StoreContext): Promise<readonly { id: string; referrer: ScimResource }[]> => {
    const mapping = mappingOf(lookup.resourceType);
    const m = mapping?.table.members;
    if (mapping === undefined || m === undefined || lookup.attribute.toLowerCase() !== 'members' || resources.length === 0) return [];
    // What the reads that returned the resources read along with them; a statement for the rest only.
    const out: { id: string; referrer: ScimResource }[] = [];
    const key = lookupKey(lookup);
    const unread: ScimResource[] = [];
    for (const resource of resources) {
      const known = prefetched.get(resource);
      if (known === undefined || known.lookup !== key) unread.push(resource);
      else for (const referrer of known.referrers) out.push({ id: resource.id, referrer });
    }
    // The ids by member type (a type column tells a user's rows from a group's); one statement per type present.
    const byType = new Map<string, Set<string>>();
    const types = memberTypes(m);
    for (const resource of unread) {
      const type = m.typeColumn === undefined ? types[0] : types.find((t) => t === resource.meta?.resourceType);
      const target = type === undefined ? undefined : mappings.get(type);
      if (type === undefined || (target !== undefined && !acceptsId(target, resource.id))) continue;
      let ids = byType.get(type);
      if (ids === undefined) byType.set(type, (ids = new Set()));
      ids.add(resource.id);
    }
    for (const [type, set] of byType) {
      const ids = [...set];
      const typed = m.typeColumn === undefined ? sql`` : sql` AND ${sql.ref(`j.${m.typeColumn.column}`)} = ${memberTypeValue(m, type)}`;
      for (let i = 0; i < ids.length; i += 1000) {
        const chunk = ids.slice(i, i + 1000);
        const rows = await sql<Record<string, unknown>>`SELECT ${sql.ref(`j.${m.member}`)} AS ${sql.id('__scim_member')}, ${selectList(mapping, true)} FROM ${sql.table(m.table)} AS ${sql.id('j')} JOIN ${from(mapping)} ON ${idRef(mapping)} = ${sql.ref(`j.${m.group}`)} WHERE ${sql.ref(`j.${m.member}`)} IN (${sql.join(chunk)})${typed} AND ${tenantOf(mapping, ctx)} ORDER BY ${idRef(mapping)}`.execute(db);
        for (const row of rows.rows) out.push({ id: String(row['__scim_member']), referrer: rowToResource(mapping, row) });
      }
    }
    return out;
  };

  const store: ScimStore & { referrers: typeof referrers } = {
    capabilities,
    ...(options.events ? { outbox: createSqlOutbox(db, { dialect: name, partitions }) } : {}),
    referrers,
    create,
    get: async (resourceType, id, ctx) => {
      const mapping = mappingOf(resourceType);
      return mapping === undefined ? undefined : readOne(db, mapping, id, ctx);
    },
    replace,
    delete: remove,
    query,
  };
  // Driver failures sorted out: transient ones 503 (StoreUnavailableError), conflicts run again, bugs 500.
  return withUnavailable(store, options.transactionAttempts === undefined ? {} : { attempts: options.transactionAttempts });
}

function stableSort(resources: readonly ScimResource[], compare: (a: ScimResource, b: ScimResource) => number): ScimResource[] {
  return resources
    .map((resource, index) => ({ resource, index }))
    .sort((a, b) => compare(a.resource, b.resource) || a.index - b.index)
    .map((entry) => entry.resource);
}

export type { DialectSql };
