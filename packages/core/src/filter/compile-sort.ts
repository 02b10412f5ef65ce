import { err, ok, type Result } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import type { AttributeDefinition } from '../schema/attribute-definition.js';
import type { ResourceModel } from '../schema/resource-model.js';
import type { ScimResource } from '../schema/scim-resource.js';
import type { AttrPath } from './ast.js';
import { dateTimeInstant } from './date-time-instant.js';
import { resourceScope } from './filter-scope.js';
import { printAttrPath } from './print-filter.js';

/** Orders two resources; stable with `Array.prototype.sort`. */
export type ResourceComparator = (a: ScimResource, b: ScimResource) => number;

export type SortOrder = 'ascending' | 'descending';

type SortKey = string | number | undefined;
type KeyOf = (resource: ScimResource) => SortKey;

/**
 * Compiles `sortBy` and `sortOrder` (RFC 7644 §3.4.2.3) into a comparator: strings by the attribute's
 * `caseExact`, numbers numerically, dateTimes as instants, booleans false before true; a multi-valued
 * attribute sorts by its primary value, else its first; resources without a value sort last ascending
 * and first descending. With several resource types the key is read per `meta.resourceType`, and a type
 * that lacks the attribute has no value. Never throws: an attribute unknown to every type, a
 * `returned: never` attribute, or a complex attribute without a sub-attribute to compare is a 400
 * invalidPath.
 */
export function compileSort(
  sortBy: AttrPath,
  order: SortOrder | undefined,
  models: ResourceModel | readonly ResourceModel[],
): Result<ResourceComparator> {
  const list: readonly ResourceModel[] = Array.isArray(models) ? (models as readonly ResourceModel[]) : [models as ResourceModel];
  const name = typeof sortBy?.attr === 'string' ? printAttrPath(sortBy) : String(sortBy);
  const keyByType = new Map<string, KeyOf>();
  let single: KeyOf | undefined;
  for (const model of list) {
    const resolved = typeof sortBy?.attr === 'string' ? resourceScope(model).resolve(sortBy) : undefined;
    if (resolved === undefined) continue;
    if (resolved.target.returned === 'never' || resolved.attribute.returned === 'never') {
      return err(scimError('invalidPath', `Invalid sortBy: '${name}' is never returned and cannot be sorted on`));
    }
    let keys = resolved.keys;
    let target = resolved.target;
    if (target.type === 'complex') {
      const value = target.multiValued ? target.subAttributes?.find((sub) => sub.name.toLowerCase() === 'value') : undefined;
      if (value === undefined) {
        return err(scimError('invalidPath', `Invalid sortBy: '${name}' is a complex attribute; sort by one of its sub-attributes`));
      }
      keys = [...keys, value.name];
      target = value;
    }
    const keyOf = sortKeyReader(keys, target);
    single = keyOf;
    keyByType.set(model.definition.name, keyOf);
    if (!keyByType.has(model.definition.id)) keyByType.set(model.definition.id, keyOf);
  }
  if (single === undefined) {
    const where = list.length > 1 ? ` (not an attribute of ${list.map((m) => m.definition.name).join(' or ')})` : '';
    return err(scimError('invalidPath', `Invalid sortBy: unknown attribute '${name}'${where}`));
  }
  const keyOf: KeyOf =
    list.length === 1
      ? single
      : (resource) => {
          const type = (resource as { meta?: { resourceType?: unknown } } | null)?.meta?.resourceType;
          const read = typeof type === 'string' ? keyByType.get(type) : undefined;
          return read === undefined ? undefined : read(resource);
        };
  const sign = order === 'descending' ? -1 : 1;
  const compare = ((a: ScimResource, b: ScimResource) => {
    const cmp = compareKeys(keyOf(a), keyOf(b));
    return cmp === 0 ? 0 : sign * cmp;
  });
  return ok(withSortKeys(compare, { keyOf, sign }));
}

interface SortKeys {
  readonly keyOf: KeyOf;
  readonly sign: number;
  /** Asked before each comparison; when it answers false the comparison is 0 (a work budget). */
  readonly allow?: () => boolean;
}

/**
 * The key reader behind a compiled comparator (and those derived from one), for `sortResources`: a
 * hidden property of the comparator function itself, so nothing about comparators is kept here.
 */
const SORT_KEYS: unique symbol = Symbol('scimkit.sortKeys');

type KeyedComparator = ResourceComparator & { readonly [SORT_KEYS]?: SortKeys };

function withSortKeys(compare: ResourceComparator, keys: SortKeys): ResourceComparator {
  Object.defineProperty(compare, SORT_KEYS, { value: keys });
  return compare;
}

function sortKeysOf(compare: ResourceComparator): SortKeys | undefined {
  return (compare as KeyedComparator)[SORT_KEYS];
}

/**
 * `compare` that asks `allow()` before every comparison and answers 0 once it refuses (a work
 * budget counting comparisons), still sorted key-once by `sortResources`.
 */
export function compareWhile(compare: ResourceComparator, allow: () => boolean): ResourceComparator {
  const derived: ResourceComparator = (a, b) => (allow() ? compare(a, b) : 0);
  const keys = sortKeysOf(compare);
  if (keys === undefined) return derived;
  const before = keys.allow;
  return withSortKeys(derived, { ...keys, allow: before === undefined ? allow : () => allow() && before() });
}

/**
 * `resources` sorted (stably) by `compare`, in a new array. For a comparator from `compileSort`,
 * each resource's key is read once (decorate-sort-undecorate) rather than twice per comparison:
 * a key may cost a date parse or a lower-casing, and a sort makes O(n log n) comparisons.
 */
export function sortResources<T extends ScimResource>(resources: readonly T[], compare: ResourceComparator): T[] {
  const compiled = sortKeysOf(compare);
  if (compiled === undefined) return [...resources].sort(compare);
  const { keyOf, sign, allow } = compiled;
  const keys = resources.map((resource) => keyOf(resource));
  const order = keys.map((_, i) => i);
  order.sort((i, j) => {
    if (allow !== undefined && !allow()) return 0;
    const cmp = compareKeys(keys[i], keys[j]);
    return cmp === 0 ? i - j : sign * cmp;
  });
  return order.map((i) => resources[i] as T);
}

/** Missing values after every value; that order reversed for descending puts them first. */
function compareKeys(a: SortKey, b: SortKey): number {
  if (a === undefined) return b === undefined ? 0 : 1;
  if (b === undefined) return -1;
  if (typeof a !== typeof b) return typeof a === 'number' ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Reads the comparable key at `keys`: through arrays by their primary element, else their first. */
function sortKeyReader(keys: readonly string[], target: AttributeDefinition): KeyOf {
  const normalize = normalizer(target);
  return (resource) => {
    let value: unknown = resource;
    for (const key of keys) {
      value = pick(value);
      if (typeof value !== 'object' || value === null) return undefined;
      value = (value as Record<string, unknown>)[key];
    }
    return normalize(pick(value));
  };
}

/** RFC 7644 §3.4.2.3: a multi-valued attribute sorts by its primary value, if any, else its first. */
function pick(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  for (const element of value) {
    if (typeof element === 'object' && element !== null && (element as { primary?: unknown }).primary === true) return element;
  }
  return value[0];
}

function normalizer(target: AttributeDefinition): (value: unknown) => SortKey {
  switch (target.type) {
    case 'integer':
    case 'decimal':
      return (v) => (typeof v === 'number' && !Number.isNaN(v) ? v : undefined);
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? Number(v) : undefined);
    case 'dateTime':
      return (v) => {
        const t = typeof v === 'string' ? dateTimeInstant(v) : Number.NaN;
        return Number.isNaN(t) ? undefined : t;
      };
    default:
      return target.caseExact
        ? (v) => (typeof v === 'string' ? v : undefined)
        : (v) => (typeof v === 'string' ? v.toLowerCase() : undefined);
  }
}
