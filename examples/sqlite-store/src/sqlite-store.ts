import { comparisonKey, type ScimResource, type ScimStore, type StoreContext, type StoreDeleteResult, type StoreWriteResult, type UniqueAttribute } from '@scimkit/core';
import type { Database, SqlValue } from 'sql.js';
import { createTables } from './create-tables.js';
import { indexedEquality } from './indexed-equality.js';
import { uniqueValues } from './unique-values.js';

/**
 * A `ScimStore` over a SQLite database (sql.js). Every write is one transaction whose statements
 * carry the guarantees: the primary key of `scim_unique_values` refuses a second holder of a unique
 * value, and `UPDATE … WHERE version = ?` is the compare-and-swap. The same statements keep those
 * guarantees on a server database with concurrent connections. Every statement is scoped to the
 * call's tenant (`ctx.tenant`, `''` for the default tenant), which leads every key.
 */
export function createSqliteStore(db: Database): ScimStore {
  createTables(db);

  const column = (sql: string, params: SqlValue[]): SqlValue[] => {
    const statement = db.prepare(sql, params);
    try {
      const values: SqlValue[] = [];
      while (statement.step()) values.push(statement.get()[0] ?? null);
      return values;
    } finally {
      statement.free();
    }
  };
  const resources = (sql: string, params: SqlValue[]): ScimResource[] =>
    column(sql, params).map((data) => JSON.parse(String(data)) as ScimResource);

  /** Runs `write` in a transaction, committed only when it succeeds. */
  const transaction = <T extends { ok: boolean }>(write: () => T): T => {
    db.exec('BEGIN');
    try {
      const result = write();
      db.exec(result.ok ? 'COMMIT' : 'ROLLBACK');
      return result;
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  };

  /** Claims the resource's unique values; the name of the first one another resource holds, if any. */
  const claimUniqueValues = (tenant: string, resourceType: string, resource: ScimResource, unique: readonly UniqueAttribute[]): string | undefined => {
    for (const [attribute, value] of uniqueValues(resource, unique)) {
      try {
        db.run('INSERT INTO scim_unique_values (tenant, resource_type, attribute, value, id) VALUES (?, ?, ?, ?, ?)', [tenant, resourceType, attribute, value, resource.id]);
      } catch (error) {
        if (isUniqueViolation(error)) return attribute;
        throw error;
      }
    }
    return undefined;
  };

  /** Why a write that touched no row failed: the row is gone, or its version moved on. */
  const missOf = (tenant: string, resourceType: string, id: string): 'notFound' | 'versionMismatch' =>
    column('SELECT 1 FROM scim_resources WHERE tenant = ? AND resource_type = ? AND id = ?', [tenant, resourceType, id]).length === 0 ? 'notFound' : 'versionMismatch';

  return {
    capabilities: { filter: (filter) => indexedEquality(filter) !== undefined },

    async create(resourceType, resource, ctx) {
      const tenant = tenantOf(ctx);
      return transaction((): StoreWriteResult => {
        db.run(
          'INSERT INTO scim_resources (tenant, resource_type, id, user_name, external_id, version, data) VALUES (?, ?, ?, ?, ?, ?, ?)',
          [tenant, resourceType, resource.id, userName(resource), externalId(resource), resource.meta.version, JSON.stringify(resource)],
        );
        const taken = claimUniqueValues(tenant, resourceType, resource, ctx.unique);
        return taken === undefined ? { ok: true, resource } : { ok: false, reason: 'uniqueness', attribute: taken };
      });
    },

    async get(resourceType, id, ctx) {
      return resources('SELECT data FROM scim_resources WHERE tenant = ? AND resource_type = ? AND id = ?', [tenantOf(ctx), resourceType, id])[0];
    },

    async replace(resourceType, id, resource, expectedVersion, ctx) {
      const tenant = tenantOf(ctx);
      return transaction((): StoreWriteResult => {
        db.run(
          `UPDATE scim_resources SET user_name = ?, external_id = ?, version = ?, data = ?
           WHERE tenant = ? AND resource_type = ? AND id = ? AND version = ?`,
          [userName(resource), externalId(resource), resource.meta.version, JSON.stringify(resource), tenant, resourceType, id, expectedVersion],
        );
        if (db.getRowsModified() !== 1) return { ok: false, reason: missOf(tenant, resourceType, id) };
        db.run('DELETE FROM scim_unique_values WHERE tenant = ? AND resource_type = ? AND id = ?', [tenant, resourceType, id]);
        const taken = claimUniqueValues(tenant, resourceType, resource, ctx.unique);
        return taken === undefined ? { ok: true, resource } : { ok: false, reason: 'uniqueness', attribute: taken };
      });
    },

    async delete(resourceType, id, expectedVersion, ctx) {
      const tenant = tenantOf(ctx);
      return transaction((): StoreDeleteResult => {
        if (expectedVersion === undefined) db.run('DELETE FROM scim_resources WHERE tenant = ? AND resource_type = ? AND id = ?', [tenant, resourceType, id]);
        else db.run('DELETE FROM scim_resources WHERE tenant = ? AND resource_type = ? AND id = ? AND version = ?', [tenant, resourceType, id, expectedVersion]);
        if (db.getRowsModified() !== 1) return { ok: false, reason: missOf(tenant, resourceType, id) };
        db.run('DELETE FROM scim_unique_values WHERE tenant = ? AND resource_type = ? AND id = ?', [tenant, resourceType, id]);
        return { ok: true };
      });
    },

    async query(resourceType, query, ctx) {
      const tenant = tenantOf(ctx);
      // The core hands over a filter only when `capabilities.filter` accepted it: one indexed
      // equality. SQL narrows the rows; the core's reference predicate has the last word.
      const equality = query.filter === undefined ? undefined : indexedEquality(query.filter);
      const rows =
        equality === undefined
          ? resources('SELECT data FROM scim_resources WHERE tenant = ? AND resource_type = ? ORDER BY rowid', [tenant, resourceType])
          : resources(`SELECT data FROM scim_resources WHERE tenant = ? AND resource_type = ? AND ${equality.column} = ? ORDER BY rowid`, [
              tenant,
              resourceType,
              equality.value,
            ]);
      const matching = rows.filter(query.semantics.matches);
      return { totalResults: matching.length, resources: matching };
    },
  };
}

/** The tenant column's value: the call's tenant, `''` for the default tenant. */
function tenantOf(ctx: StoreContext | undefined): string {
  return ctx?.tenant ?? '';
}

function userName(resource: ScimResource): string | null {
  return typeof resource['userName'] === 'string' ? comparisonKey(resource['userName'], false) : null;
}

function externalId(resource: ScimResource): string | null {
  return typeof resource.externalId === 'string' ? resource.externalId : null;
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && error.message.includes('UNIQUE constraint failed');
}
