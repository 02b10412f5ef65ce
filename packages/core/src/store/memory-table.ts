import type { AttrPath, Filter } from '../filter/ast.js';
import { sortResources } from '../filter/compile-sort.js';
import type { ScimResource } from '../schema/scim-resource.js';
import type { FilterSemantics, StoreDeleteResult, StoreQuery, StoreQueryResult, StoreWriteResult, UniqueAttribute } from './scim-store.js';
import { uniqueValue } from './unique-value.js';

/** One unique attribute's index: normalized value → id. */
interface UniqueIndex {
  readonly unique: UniqueAttribute;
  readonly ids: Map<string, string>;
  /** False once two resources were seen holding one value (written without this constraint): lookups are then unsafe. */
  exact: boolean;
}

/**
 * The resources of one resource type, with the indexes that turn `id eq`, `externalId eq` and
 * `<unique attribute> eq` filters into lookups. Indexes hold ids only, never copies.
 *
 * Every method is synchronous: a check and the write it guards happen in one turn of the event
 * loop, so concurrent requests can never interleave between them.
 */
export class MemoryTable {
  private readonly byId = new Map<string, ScimResource>();
  private readonly uniqueIndexes = new Map<string, UniqueIndex>();
  /** externalId (caseExact, RFC 7643 §3.1) → id, or the set of ids sharing it. */
  private readonly byExternalId = new Map<string, string | Set<string>>();

  get(id: string): ScimResource | undefined {
    return this.byId.get(id);
  }

  insert(resource: ScimResource, unique: readonly UniqueAttribute[]): StoreWriteResult {
    if (this.byId.has(resource.id)) return { ok: false, reason: 'uniqueness', attribute: 'id' };
    const conflict = this.conflict(resource, unique, undefined);
    if (conflict !== undefined) return { ok: false, reason: 'uniqueness', attribute: conflict };
    this.byId.set(resource.id, resource);
    this.indexAdd(resource);
    return { ok: true, resource };
  }

  replace(id: string, resource: ScimResource, expectedVersion: string, unique: readonly UniqueAttribute[]): StoreWriteResult {
    const current = this.byId.get(id);
    if (current === undefined) return { ok: false, reason: 'notFound' };
    if (current.meta.version !== expectedVersion) return { ok: false, reason: 'versionMismatch' };
    const conflict = this.conflict(resource, unique, id);
    if (conflict !== undefined) return { ok: false, reason: 'uniqueness', attribute: conflict };
    this.indexRemove(current);
    this.byId.set(id, resource);
    this.indexAdd(resource);
    return { ok: true, resource };
  }

  remove(id: string, expectedVersion: string | undefined): StoreDeleteResult {
    const current = this.byId.get(id);
    if (current === undefined) return { ok: false, reason: 'notFound' };
    if (expectedVersion !== undefined && current.meta.version !== expectedVersion) return { ok: false, reason: 'versionMismatch' };
    this.indexRemove(current);
    this.byId.delete(id);
    return { ok: true };
  }

  /** Filter (by lookup when an index applies, else by scan), sort, page. Returns stored objects. */
  query(query: StoreQuery): StoreQueryResult {
    const { filter, semantics } = query;
    let rows: ScimResource[] | undefined;
    if (filter !== undefined) {
      const ids = this.candidates(filter, semantics);
      rows = [];
      const source = ids === undefined ? this.byId.values() : this.resolve(ids);
      for (const resource of source) if (semantics.matches(resource)) rows.push(resource);
    }
    if (query.sort !== undefined && semantics.compare !== undefined) {
      rows = sortResources(rows ?? [...this.byId.values()], semantics.compare);
    }
    const totalResults = rows?.length ?? this.byId.size;
    const start = Math.max(1, query.startIndex ?? 1) - 1;
    const count = Math.max(0, query.count ?? Number.POSITIVE_INFINITY);
    const resources = rows !== undefined ? rows.slice(start, start + count) : this.slice(start, count);
    return { totalResults, resources };
  }

  /** Insertion-order page of all resources without materializing the whole table. */
  private slice(start: number, count: number): ScimResource[] {
    const page: ScimResource[] = [];
    if (count === 0) return page;
    let index = 0;
    for (const resource of this.byId.values()) {
      if (index++ < start) continue;
      page.push(resource);
      if (page.length >= count) break;
    }
    return page;
  }

  private *resolve(ids: Iterable<string>): Iterable<ScimResource> {
    for (const id of ids) {
      const resource = this.byId.get(id);
      if (resource !== undefined) yield resource;
    }
  }

  // ── uniqueness ──────────────────────────────────────────────────────────────

  /** The first unique attribute whose value another resource already holds, if any. */
  private conflict(resource: ScimResource, unique: readonly UniqueAttribute[], self: string | undefined): string | undefined {
    for (const attribute of unique) {
      const value = uniqueValue(resource, attribute);
      if (value === undefined) continue;
      const holder = this.uniqueIndex(attribute).ids.get(value);
      if (holder !== undefined && holder !== self) return attribute.path;
    }
    return undefined;
  }

  /** The index of a unique attribute, built on first use from the resources already stored. */
  private uniqueIndex(attribute: UniqueAttribute): UniqueIndex {
    const key = `${attribute.path}\u0000${attribute.caseExact ? 'exact' : 'fold'}`;
    let index = this.uniqueIndexes.get(key);
    if (index === undefined) {
      index = { unique: attribute, ids: new Map(), exact: true };
      for (const resource of this.byId.values()) addTo(index, resource);
      this.uniqueIndexes.set(key, index);
    }
    return index;
  }

  private indexAdd(resource: ScimResource): void {
    for (const index of this.uniqueIndexes.values()) addTo(index, resource);
    const externalId = resource.externalId;
    if (typeof externalId !== 'string') return;
    const held = this.byExternalId.get(externalId);
    if (held === undefined) this.byExternalId.set(externalId, resource.id);
    else if (typeof held === 'string') this.byExternalId.set(externalId, new Set([held, resource.id]));
    else held.add(resource.id);
  }

  private indexRemove(resource: ScimResource): void {
    for (const index of this.uniqueIndexes.values()) {
      const value = uniqueValue(resource, index.unique);
      if (value !== undefined && index.ids.get(value) === resource.id) index.ids.delete(value);
    }
    const externalId = resource.externalId;
    if (typeof externalId !== 'string') return;
    const held = this.byExternalId.get(externalId);
    if (held === resource.id) this.byExternalId.delete(externalId);
    else if (typeof held === 'object') {
      held.delete(resource.id);
      if (held.size === 1) this.byExternalId.set(externalId, held.values().next().value as string);
    }
  }

  // ── index lookups ───────────────────────────────────────────────────────────

  /**
   * Ids that may match `filter` (a superset of the matches), or undefined when only a scan can
   * tell. The caller confirms every candidate with `semantics.matches`.
   */
  private candidates(filter: Filter, semantics: FilterSemantics): Iterable<string> | undefined {
    switch (filter.kind) {
      case 'compare':
        return filter.op === 'eq' && typeof filter.value === 'string' ? this.lookup(filter.path, filter.value, semantics) : undefined;
      case 'and': {
        const left = this.candidates(filter.left, semantics);
        const right = this.candidates(filter.right, semantics);
        if (left === undefined) return right;
        if (right === undefined) return left;
        return size(left) <= size(right) ? left : right;
      }
      case 'or': {
        const left = this.candidates(filter.left, semantics);
        if (left === undefined) return undefined;
        const right = this.candidates(filter.right, semantics);
        return right === undefined ? undefined : new Set([...left, ...right]);
      }
      default:
        return undefined;
    }
  }

  private lookup(path: AttrPath, value: string, semantics: FilterSemantics): Iterable<string> | undefined {
    if (path.subAttr !== undefined) return undefined;
    const facts = semantics.attribute(path);
    if (facts === undefined || facts.multiValued || facts.type !== 'string') return undefined;
    const target = facts.fullPath;
    if (facts.caseExact && semantics.attribute({ attr: 'id' })?.fullPath === target) return this.byId.has(value) ? [value] : [];
    if (facts.caseExact && semantics.attribute({ attr: 'externalId' })?.fullPath === target) {
      const held = this.byExternalId.get(value);
      return held === undefined ? [] : typeof held === 'string' ? [held] : [...held];
    }
    for (const index of this.uniqueIndexes.values()) {
      // A case-folded index finds every case variant; an exact index serves only exact comparisons.
      if (!index.exact || (index.unique.caseExact && !facts.caseExact)) continue;
      if (semantics.attribute(attrPathOf(index.unique.path))?.fullPath !== target) continue;
      const id = index.ids.get(index.unique.caseExact ? value : value.toLowerCase());
      return id === undefined ? [] : [id];
    }
    return undefined;
  }
}

function addTo(index: UniqueIndex, resource: ScimResource): void {
  const value = uniqueValue(resource, index.unique);
  if (value === undefined) return;
  if (index.ids.has(value)) index.exact = false;
  else index.ids.set(value, resource.id);
}

function size(ids: Iterable<string>): number {
  return Array.isArray(ids) ? ids.length : ids instanceof Set ? ids.size : Number.POSITIVE_INFINITY;
}

/** `userName` → `{attr}`; `urn:…:employeeNumber` → `{uri, attr}`. */
function attrPathOf(path: string): AttrPath {
  if (!path.toLowerCase().startsWith('urn:')) return { attr: path };
  const cut = path.lastIndexOf(':');
  return { uri: path.slice(0, cut), attr: path.slice(cut + 1) };
}
