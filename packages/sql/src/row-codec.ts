import { comparisonKey, type ScimResource } from '@scimkit/core';
import type { CompiledMapping, MappedAttribute } from './compile-mapping.js';
import type { DialectSql } from './dialect.js';

/** Aliases of the computed columns every read selects. */
export const ID = '__scim_id';
export const VERSION = '__scim_version';
export const CREATED = '__scim_created';
export const MODIFIED = '__scim_modified';

type Row = Readonly<Record<string, unknown>>;
type JsonObject = Record<string, unknown>;

/** A `members` element as the store returns it. */
export interface MemberElement {
  readonly value: string;
  readonly type: string;
  readonly display?: string;
}

/** The resource a row stands for: mapped columns placed at their paths, the JSON column merged under them. */
export function rowToResource(mapping: CompiledMapping, row: Row, members?: readonly MemberElement[]): ScimResource {
  const resource: JsonObject = { schemas: [mapping.model.core.id], id: String(row[ID]) };
  const extensions = new Set<string>();
  for (const attribute of mapping.attributes) {
    const raw = row[attribute.column];
    const value = attribute.read !== undefined ? attribute.read(raw) : readValue(attribute, raw);
    if (value === undefined || value === null) continue;
    if (attribute.element !== undefined) {
      if (value === '') continue;
      placeElement(resource, attribute, value);
    } else {
      if (!placeValue(resource, attribute.keys, value)) continue;
    }
    if (attribute.extension !== undefined) extensions.add(attribute.extension);
  }
  const json = mapping.table.json === undefined ? undefined : parseJson(row[mapping.table.json]);
  if (json !== undefined) {
    for (const [key, value] of Object.entries(json)) {
      mergeInto(resource, key, value);
      if (key.toLowerCase().startsWith('urn:')) extensions.add(key);
    }
  }
  if (members !== undefined && members.length > 0) resource['members'] = members.map((m) => ({ ...m }));
  const schemas = resource['schemas'] as string[];
  for (const extension of mapping.model.extensions) if (extensions.has(extension.schema.id)) schemas.push(extension.schema.id);
  const version = row[VERSION];
  // Each instant converted once (a page converts three per row).
  const lastModified = instant(row[MODIFIED]) ?? (mapping.table.version.kind === 'timestamp' ? instant(version) : undefined);
  const created = instant(row[CREATED]) ?? lastModified ?? EPOCH;
  const modified = lastModified ?? created;
  resource['meta'] = { resourceType: mapping.resourceType, created, lastModified: modified, version: `W/"${String(version)}"` };
  return resource as ScimResource;
}

/** The number a `W/"…"` version carries, or undefined for a tag this store did not make. */
export function versionNumber(version: string): number | undefined {
  const match = /^W\/"(-?\d+)"$/.exec(version);
  return match === null ? undefined : Number(match[1]);
}

function readValue(attribute: MappedAttribute, raw: unknown): unknown {
  if (raw === null || raw === undefined) return undefined;
  switch (attribute.type) {
    case 'boolean':
      return raw === true || raw === 1 || raw === '1' || raw === 't' || raw === 'true' || (typeof raw === 'bigint' && raw !== 0n);
    case 'integer':
    case 'decimal': {
      const n = Number(raw);
      return Number.isFinite(n) ? n : undefined;
    }
    case 'dateTime':
      return instant(raw);
    default:
      return raw instanceof Date ? raw.toISOString() : typeof raw === 'object' ? JSON.stringify(raw) : String(raw);
  }
}

/** A timestamp as read from any driver (Date, ISO text, SQLite's `YYYY-MM-DD HH:MM:SS` in UTC, epoch ms) as ISO 8601. */
export function instant(raw: unknown): string | undefined {
  if (raw === null || raw === undefined || raw === '') return undefined;
  if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? undefined : raw.toISOString();
  // Milliseconds since the epoch (the store's own select list: int8 comes as text from pg): no regular expression.
  const ms = typeof raw === 'number' ? raw : typeof raw === 'bigint' ? Number(raw) : typeof raw === 'string' && isDigits(raw) ? Number(raw) : undefined;
  if (ms !== undefined) {
    const date = new Date(ms);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  }
  if (typeof raw !== 'string') return undefined;
  const text = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(raw) ? `${raw.replace(' ', 'T')}Z` : raw;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

const EPOCH = new Date(0).toISOString();

/** `-?[0-9]+`, without a regular expression. */
function isDigits(text: string): boolean {
  let i = text.charCodeAt(0) === 45 ? 1 : 0;
  if (i >= text.length) return false;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

function placeValue(resource: JsonObject, keys: readonly string[], value: unknown): boolean {
  let holder = resource;
  for (let i = 0; i < keys.length - 1; i++) {
    const key = keys[i] as string;
    const next = holder[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) holder[key] = {};
    holder = holder[key] as JsonObject;
  }
  const last = keys[keys.length - 1] as string;
  if (Object.prototype.hasOwnProperty.call(holder, last)) return false;
  holder[last] = value;
  return true;
}

function placeElement(resource: JsonObject, attribute: MappedAttribute, value: unknown): void {
  const element = attribute.element;
  if (element === undefined) return;
  let holder = resource;
  for (let i = 0; i < element.keys.length - 1; i++) {
    const key = element.keys[i] as string;
    if (typeof holder[key] !== 'object' || holder[key] === null) holder[key] = {};
    holder = holder[key] as JsonObject;
  }
  const key = element.keys[element.keys.length - 1] as string;
  const list = Array.isArray(holder[key]) ? (holder[key] as JsonObject[]) : (holder[key] = []) as JsonObject[];
  let found = list.find((e) => typeof e[element.selector] === 'string' && (e[element.selector] as string).toLowerCase() === element.value.toLowerCase());
  if (found === undefined) list.push((found = { [element.selector]: element.value }));
  if (!Object.prototype.hasOwnProperty.call(found, element.sub)) found[element.sub] = value;
}

function parseJson(raw: unknown): JsonObject | undefined {
  if (raw === null || raw === undefined) return undefined;
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

function mergeInto(holder: JsonObject, key: string, value: unknown): void {
  const existing = holder[key];
  if (existing === undefined) {
    holder[key] = value;
    return;
  }
  if (Array.isArray(existing) && Array.isArray(value)) {
    existing.push(...value);
    return;
  }
  if (typeof existing === 'object' && existing !== null && !Array.isArray(existing) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value as JsonObject)) mergeInto(existing as JsonObject, k, v);
  }
}

/** What a resource writes: column values, and what the mapping does not keep (a copy, with kept values removed). */
export interface RowValues {
  readonly columns: Record<string, unknown>;
  /** The unmapped part of the resource (without schemas, id, meta and the member list the join table keeps). */
  readonly rest: JsonObject;
}

/** The columns of `resource`, converted for the dialect, and the rest. */
export function resourceToRow(mapping: CompiledMapping, resource: ScimResource, dialect: DialectSql): RowValues {
  const rest = structuredClone(resource) as JsonObject;
  delete rest['schemas'];
  delete rest['id'];
  delete rest['meta'];
  delete rest['groups'];
  if (mapping.table.members !== undefined) delete rest['members'];
  const columns: Record<string, unknown> = {};
  const written = new Map<string, unknown>();
  for (const attribute of mapping.attributes) {
    const found = attribute.element === undefined ? takeValue(rest, attribute.keys, false) : takeElement(rest, attribute, false);
    const taken = found ?? attribute.default;
    const value = taken === undefined ? undefined : attribute.write !== undefined ? attribute.write(taken) : writeValue(attribute, taken, dialect);
    if (written.has(attribute.column)) {
      // A second path on one column: kept only when it says the same as the first.
      if (found !== undefined && sameValue(written.get(attribute.column), value)) {
        if (attribute.element === undefined) takeValue(rest, attribute.keys, true);
        else takeElement(rest, attribute, true);
      }
      continue;
    }
    if (found !== undefined) {
      if (attribute.element === undefined) takeValue(rest, attribute.keys, true);
      else takeElement(rest, attribute, true);
    }
    written.set(attribute.column, value);
    columns[attribute.column] = value ?? null;
    if (attribute.key !== undefined) columns[attribute.key] = typeof taken === 'string' ? comparisonKey(taken, false) : null;
  }
  prune(rest);
  return { columns, rest };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return a === b;
}

function writeValue(attribute: MappedAttribute, value: unknown, dialect: DialectSql): unknown {
  switch (attribute.type) {
    case 'boolean':
      return dialect.name === 'postgres' ? value === true : value === true ? 1 : 0;
    case 'dateTime': {
      const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
      return Number.isNaN(ms) ? value : dialect.timestamp(ms);
    }
    default:
      return value;
  }
}

function takeValue(rest: JsonObject, keys: readonly string[], remove: boolean): unknown {
  let holder: unknown = rest;
  for (let i = 0; i < keys.length - 1; i++) {
    holder = typeof holder === 'object' && holder !== null && !Array.isArray(holder) ? (holder as JsonObject)[keys[i] as string] : undefined;
  }
  if (typeof holder !== 'object' || holder === null || Array.isArray(holder)) return undefined;
  const last = keys[keys.length - 1] as string;
  const value = (holder as JsonObject)[last];
  if (remove) delete (holder as JsonObject)[last];
  return value === null ? undefined : value;
}

function takeElement(rest: JsonObject, attribute: MappedAttribute, remove: boolean): unknown {
  const element = attribute.element;
  if (element === undefined) return undefined;
  const list = takeValue(rest, element.keys, false);
  if (!Array.isArray(list)) return undefined;
  const index = list.findIndex(
    (e) => typeof e === 'object' && e !== null && typeof (e as JsonObject)[element.selector] === 'string' && ((e as JsonObject)[element.selector] as string).toLowerCase() === element.value.toLowerCase() && (e as JsonObject)[element.sub] !== undefined,
  );
  if (index < 0) return undefined;
  const found = list[index] as JsonObject;
  const value = found[element.sub];
  if (remove) {
    delete found[element.sub];
    delete found[element.selector];
  }
  return value;
}

/** Drops empty objects and arrays left behind once kept values are taken out. */
function prune(holder: JsonObject): void {
  for (const [key, value] of Object.entries(holder)) {
    if (Array.isArray(value)) {
      for (const element of value) if (typeof element === 'object' && element !== null && !Array.isArray(element)) prune(element as JsonObject);
      const kept = value.filter((e) => !(typeof e === 'object' && e !== null && !Array.isArray(e) && Object.keys(e).length === 0));
      if (kept.length === 0) delete holder[key];
      else holder[key] = kept;
    } else if (typeof value === 'object' && value !== null) {
      prune(value as JsonObject);
      if (Object.keys(value).length === 0) delete holder[key];
    } else if (value === undefined) {
      delete holder[key];
    }
  }
}

/** The paths of what `rest` holds, for a report: `nickName`, `name.middleName`, `emails`, `urn:…:User:manager`. */
export function restPaths(rest: JsonObject): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(rest)) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const sub of Object.keys(value)) out.push(key.toLowerCase().startsWith('urn:') ? `${key}:${sub}` : `${key}.${sub}`);
    } else out.push(key);
  }
  return out;
}
