import type { AttrPath, Filter } from '../filter/ast.js';
import { sortResources } from '../filter/compile-sort.js';
import type { ScimMeta, ScimResource } from '../schema/scim-resource.js';
import { assignedResource } from './assigned-resource.js';
import { assignPrevious } from './assign-previous.js';
import { EqualityIndex, type IndexedAttribute } from './equality-index.js';
import { freezeShared, mergeElements } from './frozen-copy.js';
import { InsertionLog } from './insertion-log.js';
import { pageByCursor } from './memory-cursor-page.js';
import { topLevelPath } from './memory-cursor.js';
import type {
  FilterSemantics,
  MultiValuedChange,
  StoreAssignment,
  StoreAssignResult,
  StoreDeleteResult,
  StoreQuery,
  StoreQueryResult,
  StoreWriteResult,
  UniqueAttribute,
} from './scim-store.js';
import { readTopLevel, scalarKey, uniqueValue } from './unique-value.js';

/** A resource a cascade changed: as it was, and as it is now. */
export interface ReferenceRemoval {
  readonly before: ScimResource;
  readonly after: ScimResource;
}

/**
 * The resources of one resource type of one tenant, deep-frozen, with the indexes that turn `id eq`,
 * `externalId eq`, `<attribute> eq` and `<multi-valued>.value eq` filters into lookups. Indexes
 * hold ids only, never copies. `externalId` and `userName` are indexed from the start; any other
 * index is built on first use (a uniqueness check or an `eq` lookup) from the resources already
 * stored, then kept up to date by every write.
 *
 * Every method is synchronous: a check and the write it guards happen in one turn of the event
 * loop, so concurrent requests can never interleave between them.
 */
export class MemoryTable {
  private readonly byId = new Map<string, ScimResource>();
  private readonly indexes = new Map<string, EqualityIndex>();
  /** Creation order: the unsorted order, and the tie-breaker of keyset cursors. */
  readonly log = new InsertionLog();

  constructor() {
    // The lookups identity providers make before almost every write (RFC 7643 §3.1, §4.1.1), kept
    // from the first resource on, however the resources arrive (`create` or `initial`).
    this.index({ path: 'externalId', element: false });
    this.index({ path: 'userName', element: false });
  }

  get(id: string): ScimResource | undefined {
    return this.byId.get(id);
  }

  get size(): number {
    return this.byId.size;
  }

  /** Stores a deep-frozen copy of `input`. */
  insert(input: ScimResource, unique: readonly UniqueAttribute[]): StoreWriteResult {
    if (this.byId.has(input.id)) return { ok: false, reason: 'uniqueness', attribute: 'id' };
    const conflict = this.conflict(input, unique, undefined);
    if (conflict !== undefined) return { ok: false, reason: 'uniqueness', attribute: conflict };
    const resource = freezeShared(input) as ScimResource;
    this.byId.set(resource.id, resource);
    this.log.append(resource.id);
    for (const index of this.indexes.values()) index.addResource(resource.id, resource);
    return { ok: true, resource };
  }

  /**
   * Swaps in a deep-frozen copy of `input` that shares every object it can with the stored
   * resource; for the attributes in `changes`, the kept elements are reused and only added ones
   * copied, and the indexes over them change by the added and dropped elements only.
   */
  replace(id: string, input: ScimResource, expectedVersion: string, unique: readonly UniqueAttribute[], changes: readonly MultiValuedChange[] = []): StoreWriteResult {
    const current = this.byId.get(id);
    if (current === undefined) return { ok: false, reason: 'notFound' };
    if (current.meta.version !== expectedVersion) return { ok: false, reason: 'versionMismatch' };
    const conflict = this.conflict(input, unique, id);
    if (conflict !== undefined) return { ok: false, reason: 'uniqueness', attribute: conflict };

    const merged = new Map<string, { dropped: readonly unknown[]; added: readonly unknown[] }>();
    const built = new Set<unknown>();
    let draft: Record<string, unknown> = { ...input, id };
    for (const change of changes) {
      const next = readTopLevel(input, change.attribute);
      const stored = readTopLevel(current, change.attribute);
      if (!Array.isArray(next) || !Array.isArray(stored) || merged.has(change.attribute)) continue;
      const { elements, dropped, added } = mergeElements(stored, next, change.removed);
      draft = withTopLevel(draft, change.attribute, elements);
      built.add(elements);
      merged.set(change.attribute, { dropped, added });
    }
    const resource = freezeShared(draft, current, built) as ScimResource;
    this.byId.set(id, resource);
    for (const index of this.indexes.values()) {
      const delta = index.attribute.element ? merged.get(index.attribute.path) : undefined;
      if (delta !== undefined) {
        index.removeElements(id, delta.dropped);
        index.addElements(id, delta.added);
      } else if (readTopLevel(resource, index.attribute.path) !== readTopLevel(current, index.attribute.path)) {
        index.removeResource(id, current);
        index.addResource(id, resource);
      }
    }
    return { ok: true, resource };
  }

  /**
   * Sets `assignment.values` (ScimStore.assign) in one synchronous step: the version compared, the
   * resource kept when it already holds them, a deep-frozen copy sharing the rest swapped in, and
   * the indexes of the top-level values that changed updated; with `wantPrevious`, what the
   * assigned attributes held before (assignPrevious).
   */
  assign(id: string, assignment: StoreAssignment): StoreAssignResult {
    const current = this.byId.get(id);
    if (current === undefined) return { ok: false, reason: 'notFound' };
    if (assignment.expectedVersion !== undefined && current.meta.version !== assignment.expectedVersion) return { ok: false, reason: 'versionMismatch' };
    const assigned = assignedResource(current, assignment);
    const previous = assignment.wantPrevious === true ? assignPrevious(current, assignment) : undefined;
    if (assigned.kind === 'unchanged') return previous === undefined ? { ok: true, resource: current, changed: false } : { ok: true, resource: current, changed: false, previous };
    if (assigned.kind === 'declined') return { ok: false, reason: 'declined' };
    const resource = freezeShared(assigned.resource, current) as ScimResource;
    this.byId.set(id, resource);
    for (const index of this.indexes.values()) {
      if (readTopLevel(resource, index.attribute.path) !== readTopLevel(current, index.attribute.path)) {
        index.removeResource(id, current);
        index.addResource(id, resource);
      }
    }
    return previous === undefined ? { ok: true, resource, changed: true } : { ok: true, resource, changed: true, previous };
  }

  remove(id: string, expectedVersion: string | undefined): StoreDeleteResult {
    const current = this.byId.get(id);
    if (current === undefined) return { ok: false, reason: 'notFound' };
    if (expectedVersion !== undefined && current.meta.version !== expectedVersion) return { ok: false, reason: 'versionMismatch' };
    for (const index of this.indexes.values()) index.removeResource(id, current);
    this.byId.delete(id);
    this.log.remove(id);
    return { ok: true };
  }

  /**
   * Removes every element of the multi-valued `attribute` whose `value` is `id` (found through the
   * attribute's element index, not a scan), giving each changed resource the `meta` of `touch`.
   */
  removeReferences(attribute: string, id: string, touch: (resource: ScimResource) => ScimMeta): ReferenceRemoval[] {
    const index = this.index({ path: attribute, element: true });
    const key = scalarKey(id, false);
    const removals: ReferenceRemoval[] = [];
    for (const holder of key === undefined ? [] : index.ids(key)) {
      const before = this.byId.get(holder);
      const elements = before === undefined ? undefined : readTopLevel(before, attribute);
      if (before === undefined || !Array.isArray(elements)) continue;
      const references = (e: unknown): boolean => typeof e === 'object' && e !== null && (e as { value?: unknown }).value === id;
      const dropped = elements.filter(references);
      if (dropped.length === 0) continue;
      const kept = elements.filter((e) => !references(e));
      const frozen = Object.freeze(kept);
      const draft = withTopLevel({ ...before }, attribute, frozen);
      draft['meta'] = touch(before);
      const after = freezeShared(draft, before, new Set([frozen])) as ScimResource;
      this.byId.set(holder, after);
      index.removeElements(holder, dropped);
      for (const other of this.indexes.values()) {
        if (other !== index && readTopLevel(after, other.attribute.path) !== readTopLevel(before, other.attribute.path)) {
          other.removeResource(holder, before);
          other.addResource(holder, after);
        }
      }
      removals.push({ before, after });
    }
    return removals;
  }

  /**
   * The resources holding an element of the multi-valued `attribute` whose `value` equals `id` (as
   * `attribute.value eq` compares: `caseExact`, else by `uniqueKey`; strings only), in creation
   * order, found through the attribute's element index.
   */
  referencing(attribute: string, id: string, caseExact: boolean): ScimResource[] {
    const key = scalarKey(id, false);
    const wanted = scalarKey(id, caseExact);
    if (key === undefined) return [];
    const holders: ScimResource[] = [];
    for (const holder of this.index({ path: attribute, element: true }).ids(key)) {
      const resource = this.byId.get(holder);
      const elements = resource === undefined ? undefined : readTopLevel(resource, attribute);
      if (resource === undefined || !Array.isArray(elements)) continue;
      const holds = elements.some((e) => {
        const value = typeof e === 'object' && e !== null ? (e as { value?: unknown }).value : undefined;
        return typeof value === 'string' && scalarKey(value, caseExact) === wanted;
      });
      if (holds) holders.push(resource);
    }
    if (holders.length > 1) holders.sort((a, b) => (this.log.seq(a.id) ?? 0) - (this.log.seq(b.id) ?? 0));
    return holders;
  }

  /** Filter (by lookup when an index applies, else by scan), sort, page (by index or keyset cursor). Returns stored objects. */
  query(query: StoreQuery): StoreQueryResult {
    const { filter, semantics } = query;
    if (query.cursor !== undefined) return pageByCursor(this, query, filter === undefined ? undefined : this.matching(filter, semantics));
    let rows = filter === undefined ? undefined : this.matching(filter, semantics);
    if (query.sort !== undefined && semantics.compare !== undefined) {
      rows = sortResources(rows ?? [...this.byId.values()], semantics.compare);
    }
    const totalResults = rows?.length ?? this.byId.size;
    const start = Math.max(1, query.startIndex ?? 1) - 1;
    const count = Math.max(0, query.count ?? Number.POSITIVE_INFINITY);
    const resources = rows !== undefined ? rows.slice(start, start + count) : this.slice(start, count);
    return { totalResults, resources };
  }

  /** Every stored resource, in creation order. */
  all(): ScimResource[] {
    return [...this.byId.values()];
  }

  /** The resources matching `filter`, in creation order. */
  private matching(filter: Filter, semantics: FilterSemantics): ScimResource[] {
    const found = this.candidates(filter, semantics);
    const rows: ScimResource[] = [];
    if (found === undefined) {
      for (const resource of this.byId.values()) if (semantics.matches(resource)) rows.push(resource);
      return rows;
    }
    // An exact lookup needs no confirming: `members.value eq` does not walk 100,000 members.
    for (const id of found.ids) {
      const resource = this.byId.get(id);
      if (resource !== undefined && (found.exact || semantics.matches(resource))) rows.push(resource);
    }
    if (rows.length > 1) rows.sort((a, b) => (this.log.seq(a.id) ?? 0) - (this.log.seq(b.id) ?? 0));
    return rows;
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

  // ── uniqueness ──────────────────────────────────────────────────────────────

  /** The first unique attribute whose value another resource already holds, if any. */
  private conflict(resource: ScimResource, unique: readonly UniqueAttribute[], self: string | undefined): string | undefined {
    for (const attribute of unique) {
      const value = uniqueValue(resource, attribute);
      if (value === undefined) continue;
      const folded = scalarKey(readTopLevel(resource, attribute.path), false) as string;
      for (const holder of this.index({ path: attribute.path, element: false }).ids(folded)) {
        if (holder === self) continue;
        const other = this.byId.get(holder);
        if (other !== undefined && uniqueValue(other, attribute) === value) return attribute.path;
      }
    }
    return undefined;
  }

  /** The index of an attribute, built on first use from the resources already stored. */
  private index(attribute: IndexedAttribute): EqualityIndex {
    const key = `${attribute.path}\u0000${attribute.element ? 'value' : ''}`;
    let index = this.indexes.get(key);
    if (index === undefined) {
      index = new EqualityIndex(attribute);
      for (const [id, resource] of this.byId) index.addResource(id, resource);
      this.indexes.set(key, index);
    }
    return index;
  }

  // ── index lookups ───────────────────────────────────────────────────────────

  /**
   * Ids that may match `filter` (a superset of the matches), or undefined when only a scan can
   * tell. The caller confirms every candidate with `semantics.matches`, unless `exact` says the ids
   * are the matches. `within` is the attribute of an enclosing value path (`emails[value eq "x"]`).
   */
  private candidates(filter: Filter, semantics: FilterSemantics, within?: AttrPath): Candidates | undefined {
    switch (filter.kind) {
      case 'compare': {
        if (filter.op !== 'eq' || typeof filter.value !== 'string') return undefined;
        const path = within === undefined ? filter.path : filter.path.uri === undefined && filter.path.subAttr === undefined ? { ...within, subAttr: filter.path.attr } : undefined;
        return path === undefined ? undefined : this.lookup(path, filter.value, semantics);
      }
      case 'valuePath':
        return within === undefined ? this.candidates(filter.filter, semantics, filter.path) : undefined;
      case 'and': {
        const left = this.candidates(filter.left, semantics, within);
        const right = this.candidates(filter.right, semantics, within);
        const smaller = left === undefined ? right : right === undefined ? left : left.ids.length <= right.ids.length ? left : right;
        return smaller === undefined ? undefined : { ids: smaller.ids, exact: false };
      }
      case 'or': {
        const left = this.candidates(filter.left, semantics, within);
        if (left === undefined) return undefined;
        const right = this.candidates(filter.right, semantics, within);
        return right === undefined ? undefined : { ids: [...new Set([...left.ids, ...right.ids])], exact: left.exact && right.exact };
      }
      default:
        return undefined;
    }
  }

  /**
   * The index lookup for `path eq value`: `id` from the table itself; a single-valued top-level
   * string attribute, or the `value` of a multi-valued complex attribute, from its equality index.
   * Exact for `id`, and for a caseExact:false `value` (its index key is the evaluator's: `comparisonKey`).
   */
  private lookup(path: AttrPath, value: string, semantics: FilterSemantics): Candidates | undefined {
    const facts = semantics.attribute(path);
    if (facts === undefined || (facts.type !== 'string' && facts.type !== 'reference')) return undefined;
    const location = topLevelPath(facts.fullPath, semantics);
    if (location === undefined) return undefined;
    const sub = facts.fullPath.slice(facts.fullPath.lastIndexOf(':') + 1).split('.')[1];
    let attribute: IndexedAttribute;
    if (sub === undefined) {
      if (facts.multiValued) return undefined;
      if (location === 'id') return facts.caseExact ? { ids: this.byId.has(value) ? [value] : [], exact: true } : undefined;
      attribute = { path: location, element: false };
    } else {
      const parent = semantics.attribute(path.uri === undefined ? { attr: path.attr } : { uri: path.uri, attr: path.attr });
      if (sub !== 'value' || parent?.type !== 'complex' || !parent.multiValued) return undefined;
      attribute = { path: location, element: true };
    }
    return { ids: this.index(attribute).ids(scalarKey(value, false) as string), exact: attribute.element && !facts.caseExact };
  }
}

/** `resource` with the top-level attribute `path` (`members`, `urn:…:attr`) set to `value`. */
function withTopLevel(resource: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  if (!path.toLowerCase().startsWith('urn:')) return { ...resource, [path]: value };
  const cut = path.lastIndexOf(':');
  const urn = path.slice(0, cut);
  const container = resource[urn];
  return { ...resource, [urn]: { ...(typeof container === 'object' && container !== null ? container : {}), [path.slice(cut + 1)]: value } };
}

/** What an index lookup found: ids that may match, or (`exact`) the ids that match. */
interface Candidates {
  readonly ids: readonly string[];
  readonly exact: boolean;
}
