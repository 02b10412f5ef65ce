import type { ScimResource } from '@scimkit/core';

/**
 * How one resource type lives in the application's own table (docs/stores/own-tables.md).
 *
 * ```ts
 * const User: TableMapping = {
 *   table: 'users',
 *   id: { column: 'id' },
 *   version: { column: 'updated_at', kind: 'timestamp' },
 *   created: 'created_at',
 *   attributes: { userName: 'email', 'emails[type eq "work"].value': 'email', 'name.givenName': 'first_name', active: 'is_active' },
 * };
 * ```
 */
export interface TableMapping {
  /** The table (`users`), optionally schema-qualified (`app.users`). */
  readonly table: string;
  /** The id column and who makes its values. */
  readonly id: IdMapping;
  /**
   * Where `meta.version` comes from, so the application's own `UPDATE` changes the ETag: a timestamp
   * column (milliseconds are the version; keep millisecond precision, `DATETIME(3)` in MySQL) or an
   * integer counter the store increments.
   */
  readonly version: { readonly column: string; readonly kind: 'timestamp' | 'counter' };
  /** The column of `meta.created` (a timestamp). Without it `meta.created` is the version time, or absent. */
  readonly created?: string;
  /** The column of `meta.lastModified`; default: the version column when it is a timestamp. */
  readonly lastModified?: string;
  /**
   * Attribute path → column. Paths are as in a filter: `userName`, `name.givenName`,
   * `urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department`, or one typed element of a
   * multi-valued attribute, `emails[type eq "work"].value`. Several paths may share a column: the
   * first one the resource has a value for is written, a different value for another is not kept.
   */
  readonly attributes: Readonly<Record<string, string | ColumnMapping>>;
  /** A JSON (or text) column keeping every attribute the mapping does not: then nothing is lost. */
  readonly json?: string;
  /** A tenant column, for applications that keep several tenants in one table. Default: single-tenant. */
  readonly tenant?: string;
  /**
   * Rows SCIM owns: a column and its value. Queries see every row, but only rows with this value are
   * adopted, replaced or deleted (a row created by the application is left alone).
   */
  readonly source?: { readonly column: string; readonly value: string | number };
  /** Group membership through a join table (on a Group mapping). */
  readonly members?: MembersMapping;
}

export interface IdMapping {
  readonly column: string;
  /** The column's values: `uuid` (a non-UUID id is then a 404 without a query), `text` or `integer`. Default `uuid`. */
  readonly type?: 'uuid' | 'text' | 'integer';
  /**
   * Who makes new ids: `'core'` (the core's random UUID, the default), `'database'` (the column's
   * default or auto-increment; MySQL only for auto-increment), or a function of the new resource.
   */
  readonly generate?: 'core' | 'database' | ((resource: ScimResource) => string);
}

/** A column with converters, for a column whose type or meaning differs from the attribute's. */
export interface ColumnMapping {
  readonly column: string;
  /** The attribute value → the column value. */
  readonly write?: (value: unknown) => unknown;
  /** The column value → the attribute value (undefined: the attribute is absent). */
  readonly read?: (value: unknown) => unknown;
  /** The attribute value written when a resource has none, for a `NOT NULL` column (`active: { column: 'is_active', default: true }`). */
  readonly default?: unknown;
  /**
   * A column the store fills with the value's comparison key (NFC, lower-cased, as the in-memory
   * evaluator compares `caseExact: false` text), for MySQL/MariaDB, which has no NFC in SQL:
   * `eq`, `co`, `sw`, `ew`, `gt`… and the uniqueness check then compare it exactly
   * (`userName: { column: 'email', key: 'email_key' }`; give it the unique index). The
   * application's own writes must fill it too (docs/stores/own-tables.md).
   */
  readonly key?: string;
}

/** Membership rows: one row per (group, member). */
export interface MembersMapping {
  readonly table: string;
  /** The column holding the group's id. */
  readonly group: string;
  /** The column holding the member's id. */
  readonly member: string;
  /** The resource type of every member (default `User`) when no `typeColumn` says it row by row. */
  readonly memberType?: string;
  /**
   * A column naming each row's member type, so that a group can hold users and groups (nested
   * groups): its values are the resource type names (`User`, `Group`), or `values` maps them
   * (`{ User: 'user', Group: 'team' }`; the keys are then the member types kept). Without it a member
   * of another type than `memberType` is refused (400 invalidValue), and `/Schemas` says so.
   */
  readonly typeColumn?: { readonly column: string; readonly values?: Readonly<Record<string, string | number>> };
  /** Rows SCIM owns: PATCH and DELETE never remove a row with another value (a grant made by hand). */
  readonly source?: { readonly column: string; readonly value: string | number };
}

/** What happens to an attribute the mapping does not keep (and no `json` column keeps). */
export type UnmappedPolicy = 'reject' | 'ignore';

/** Reported for each attribute not kept under the `ignore` policy. */
export interface IgnoredAttribute {
  readonly resourceType: string;
  readonly id: string;
  /** The path not kept (`nickName`, `emails[type eq "home"]`). */
  readonly path: string;
  readonly tenant?: string;
}
