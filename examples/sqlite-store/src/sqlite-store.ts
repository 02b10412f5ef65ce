import type { ScimResource, ScimStore, StoreDeleteResult, StoreWriteResult } from '@scimkit/core';
import type { Database, SqlValue } from 'sql.js';
import { createTables } from './create-tables.js';
import { indexedEquality } from './indexed-equality.js';
import { uniqueClash } from './unique-clash.js';

/**
 * A `ScimStore` over a SQLite database (sql.js). sql.js runs every statement synchronously, and no
 * method below awaits between its read and its write; with an asynchronous driver the same
 * guarantees come from the statements themselves: the unique index on `user_name`, and
 * `UPDATE … WHERE version = ?` as the compare-and-swap.
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
  const allOfType = (resourceType: string): ScimResource[] =>
    resources('SELECT data FROM scim_resources WHERE resource_type = ? ORDER BY rowid', [resourceType]);
  /** Why a write that touched no row failed: the row is gone, or its version moved on. */
  const missOf = (resourceType: string, id: string): 'notFound' | 'versionMismatch' =>
    column('SELECT 1 FROM scim_resources WHERE resource_type = ? AND id = ?', [resourceType, id]).length === 0 ? 'notFound' : 'versionMismatch';

  return {
    capabilities: { filter: (filter) => indexedEquality(filter) !== undefined },

    async create(resourceType, resource, ctx): Promise<StoreWriteResult> {
      const clash = uniqueClash(ctx.unique, resource, allOfType(resourceType));
      if (clash !== undefined) return { ok: false, reason: 'uniqueness', attribute: clash };
      try {
        db.run(
          'INSERT INTO scim_resources (resource_type, id, user_name, external_id, version, data) VALUES (?, ?, ?, ?, ?, ?)',
          [resourceType, resource.id, userNameKey(resource), externalId(resource), resource.meta.version, JSON.stringify(resource)],
        );
      } catch (error) {
        if (isUserNameConflict(error)) return { ok: false, reason: 'uniqueness', attribute: 'userName' };
        throw error;
      }
      return { ok: true, resource };
    },

    async get(resourceType, id) {
      return resources('SELECT data FROM scim_resources WHERE resource_type = ? AND id = ?', [resourceType, id])[0];
    },

    async replace(resourceType, id, resource, expectedVersion, ctx): Promise<StoreWriteResult> {
      const clash = uniqueClash(ctx.unique, resource, allOfType(resourceType));
      if (clash !== undefined) return { ok: false, reason: 'uniqueness', attribute: clash };
      try {
        db.run(
          `UPDATE scim_resources SET user_name = ?, external_id = ?, version = ?, data = ?
           WHERE resource_type = ? AND id = ? AND version = ?`,
          [userNameKey(resource), externalId(resource), resource.meta.version, JSON.stringify(resource), resourceType, id, expectedVersion],
        );
      } catch (error) {
        if (isUserNameConflict(error)) return { ok: false, reason: 'uniqueness', attribute: 'userName' };
        throw error;
      }
      return db.getRowsModified() === 1 ? { ok: true, resource } : { ok: false, reason: missOf(resourceType, id) };
    },

    async delete(resourceType, id, expectedVersion): Promise<StoreDeleteResult> {
      if (expectedVersion === undefined) db.run('DELETE FROM scim_resources WHERE resource_type = ? AND id = ?', [resourceType, id]);
      else db.run('DELETE FROM scim_resources WHERE resource_type = ? AND id = ? AND version = ?', [resourceType, id, expectedVersion]);
      return db.getRowsModified() === 1 ? { ok: true } : { ok: false, reason: missOf(resourceType, id) };
    },

    async query(resourceType, query) {
      // The core hands over a filter only when `capabilities.filter` accepted it: one indexed
      // equality. SQL narrows the rows; the core's reference predicate has the last word.
      const equality = query.filter === undefined ? undefined : indexedEquality(query.filter);
      const rows =
        equality === undefined
          ? allOfType(resourceType)
          : resources(`SELECT data FROM scim_resources WHERE resource_type = ? AND ${equality.column} = ? ORDER BY rowid`, [
              resourceType,
              equality.value,
            ]);
      const matching = rows.filter(query.semantics.matches);
      return { totalResults: matching.length, resources: matching };
    },
  };
}

function userNameKey(resource: ScimResource): string | null {
  return typeof resource['userName'] === 'string' ? resource['userName'].toLowerCase() : null;
}

function externalId(resource: ScimResource): string | null {
  return typeof resource.externalId === 'string' ? resource.externalId : null;
}

function isUserNameConflict(error: unknown): boolean {
  return error instanceof Error && error.message.includes('UNIQUE constraint failed') && error.message.includes('user_name');
}
