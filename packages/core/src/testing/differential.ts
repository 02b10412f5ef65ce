import type * as FastCheck from 'fast-check';
import { compileFilter } from '../filter/compile-filter.js';
import { compileSort, sortResources } from '../filter/compile-sort.js';
import { parseAttrPath } from '../filter/parse-attr-path.js';
import { parseFilter } from '../filter/parse-filter.js';
import type { ResourceModel } from '../schema/resource-model.js';
import type { ScimResource } from '../schema/scim-resource.js';
import type { ScimStore, StoreContext } from '../store/scim-store.js';
import { getPath, TEXT_POOL, typeOf } from './profile-resources.js';
import { runCursorQuery, runQuery } from './run-query.js';

/** One query of the differential test. */
export interface DifferentialCase {
  readonly filter?: string;
  readonly sortBy?: string;
  readonly sortOrder?: 'ascending' | 'descending';
  /** Walk the result in pages of this size (index paging) and compare the concatenation. */
  readonly count?: number;
}

/**
 * Compares the store's answer to `query` (through its declared push-down, as the server asks)
 * with the in-memory evaluator's over every resource the store holds, as the store returns them:
 * the same ids, the same `totalResults`, and the same sort key at every position (ties may come in
 * any stable order). Undefined when they agree (or the filter does not compile for this schema),
 * else a description of the difference.
 */
export async function differentialMismatch(store: ScimStore, model: ResourceModel, query: DifferentialCase, ctx: StoreContext = {}): Promise<string | undefined> {
  const parsed = query.filter === undefined ? undefined : parseFilter(query.filter);
  if (parsed !== undefined && !parsed.ok) return undefined;
  const matches = parsed === undefined ? () => true : compileFilter(parsed.value, model);
  if (typeof matches !== 'function' && !matches.ok) return undefined;
  const predicate = typeof matches === 'function' ? matches : matches.value;
  const sortPath = query.sortBy === undefined ? undefined : parseAttrPath(query.sortBy);
  if (sortPath !== undefined && !sortPath.ok) return undefined;
  const compare = sortPath === undefined ? undefined : compileSort(sortPath.value, query.sortOrder ?? 'ascending', model);
  if (compare !== undefined && !compare.ok) return undefined;

  const all = (await runQuery(store, model, {}, ctx)).resources;
  let expected = all.filter(predicate);
  if (compare !== undefined) expected = sortResources(expected, compare.value);

  const base = { ...(query.filter === undefined ? {} : { filter: query.filter }), ...(query.sortBy === undefined ? {} : { sortBy: query.sortBy, sortOrder: query.sortOrder ?? 'ascending' }) };
  let actual: ScimResource[];
  let total: number;
  if (query.count === undefined) {
    const result = await runQuery(store, model, base, ctx);
    actual = [...result.resources];
    total = result.totalResults;
  } else {
    actual = [];
    total = -1;
    for (let start = 1; start <= expected.length + 1; start += query.count) {
      const page = await runQuery(store, model, { ...base, startIndex: start, count: query.count }, ctx);
      if (total === -1) total = page.totalResults;
      actual.push(...page.resources);
      if (page.resources.length < query.count) break;
    }
  }
  const show = (list: readonly ScimResource[]) => list.map((r) => r.id).join(', ');
  const where = `${JSON.stringify(base)}${query.count === undefined ? '' : ` in pages of ${query.count}`}`;
  if (total !== expected.length) return `${where}: totalResults ${total}, the in-memory evaluator finds ${expected.length} (${show(expected)})`;
  const ids = new Set(actual.map((r) => r.id));
  if (ids.size !== actual.length) return `${where}: a resource is returned twice (${show(actual)})`;
  if (actual.length !== expected.length || expected.some((r) => !ids.has(r.id))) return `${where}: the store returns [${show(actual)}], the in-memory evaluator [${show(expected)}]`;
  if (compare !== undefined) {
    for (let i = 0; i < actual.length; i++) {
      if (compare.value(actual[i] as ScimResource, expected[i] as ScimResource) !== 0) return `${where}: position ${i + 1} holds ${actual[i]?.id}, out of order (expected [${show(expected)}], got [${show(actual)}])`;
    }
  }
  return undefined;
}

/**
 * For a store with `capabilities.cursor`: walks `query` forward by RFC 9865 cursors in pages of
 * `count`, then back from the last page, and compares both walks with the in-memory evaluator's
 * order (same ids, same sort key at every position, no page repeated or skipped).
 */
export async function cursorWalkMismatch(store: ScimStore, model: ResourceModel, query: DifferentialCase & { readonly count: number }, ctx: StoreContext = {}): Promise<string | undefined> {
  const parsed = query.filter === undefined ? undefined : parseFilter(query.filter);
  if (parsed !== undefined && !parsed.ok) return undefined;
  const matches = parsed === undefined ? undefined : compileFilter(parsed.value, model);
  if (matches !== undefined && !matches.ok) return undefined;
  const sortPath = query.sortBy === undefined ? undefined : parseAttrPath(query.sortBy);
  if (sortPath !== undefined && !sortPath.ok) return undefined;
  const compare = sortPath === undefined ? undefined : compileSort(sortPath.value, query.sortOrder ?? 'ascending', model);
  if (compare !== undefined && !compare.ok) return undefined;
  const all = (await runQuery(store, model, {}, ctx)).resources;
  let expected = matches === undefined ? [...all] : all.filter(matches.value);
  if (compare !== undefined) expected = sortResources(expected, compare.value);
  const base = { ...(query.filter === undefined ? {} : { filter: query.filter }), ...(query.sortBy === undefined ? {} : { sortBy: query.sortBy, sortOrder: query.sortOrder ?? 'ascending' }), count: query.count };
  const where = `cursor walk ${JSON.stringify(base)}`;
  const pages: ScimResource[][] = [];
  let cursor = '';
  let last: { previousCursor?: string } = {};
  for (let i = 0; i <= expected.length + 1; i++) {
    const page = await runCursorQuery(store, model, { ...base, cursor }, ctx);
    if (page.totalResults !== expected.length) return `${where}: totalResults ${page.totalResults}, the in-memory evaluator finds ${expected.length}`;
    pages.push([...page.resources]);
    last = page;
    if (page.nextCursor === undefined) break;
    if (page.resources.length === 0) return `${where}: an empty page with a nextCursor`;
    cursor = page.nextCursor;
  }
  const forward = pages.flat();
  const check = (walked: readonly ScimResource[], label: string): string | undefined => {
    const show = (list: readonly ScimResource[]) => list.map((r) => r.id).join(', ');
    if (walked.length !== expected.length || new Set(walked.map((r) => r.id)).size !== walked.length) return `${where} ${label}: walked [${show(walked)}], expected [${show(expected)}]`;
    const ids = new Set(walked.map((r) => r.id));
    if (expected.some((r) => !ids.has(r.id))) return `${where} ${label}: walked [${show(walked)}], expected [${show(expected)}]`;
    if (compare !== undefined) for (let i = 0; i < walked.length; i++) if (compare.value(walked[i] as ScimResource, expected[i] as ScimResource) !== 0) return `${where} ${label}: position ${i + 1} out of order`;
    return undefined;
  };
  const forwardMismatch = check(forward, 'forward');
  if (forwardMismatch !== undefined) return forwardMismatch;
  // Back from the last page: each previous page, prepended, must rebuild the same list.
  const backward: ScimResource[] = [...(pages[pages.length - 1] ?? [])];
  let previous = last.previousCursor;
  for (let i = 0; previous !== undefined && i <= expected.length + 1; i++) {
    const page = await runCursorQuery(store, model, { ...base, cursor: previous }, ctx);
    backward.unshift(...page.resources);
    previous = page.previousCursor;
  }
  return check(backward, 'backward');
}

/** Filters over `paths` of `population`, with values taken from the resources (case, accents and substrings varied) and from a fixed pool. */
export function filterArbitrary(fc: typeof FastCheck, model: ResourceModel, paths: readonly string[], population: readonly ScimResource[]): FastCheck.Arbitrary<string> {
  const valueOf = (path: string) => population.map((r) => getPathSafe(model, r, path)).filter((v) => v !== undefined && !Array.isArray(v));
  const leaf = fc.constantFrom(...paths).chain((path) => {
    const type = typeOfSafe(model, path);
    const spelled = path.replace(/\[[^\]]*\]/, '');
    const seen = valueOf(path);
    switch (type) {
      case 'boolean':
        return fc.oneof(fc.constantFrom(`${spelled} eq true`, `${spelled} eq false`, `${spelled} ne true`, `${spelled} pr`, `not (${spelled} pr)`));
      case 'integer':
      case 'decimal': {
        const numbers = [...seen.filter((v): v is number => typeof v === 'number'), 0, -1, 7.5];
        return fc.tuple(fc.constantFrom('eq', 'ne', 'gt', 'ge', 'lt', 'le'), fc.constantFrom(...numbers)).map(([op, v]) => `${spelled} ${op} ${v}`);
      }
      case 'dateTime': {
        const instants = [...seen.filter((v): v is string => typeof v === 'string'), '2026-01-15T00:00:00Z', '2030-01-01T00:00:00+02:00'];
        return fc.tuple(fc.constantFrom('eq', 'ne', 'gt', 'ge', 'lt', 'le'), fc.constantFrom(...instants)).map(([op, v]) => `${spelled} ${op} ${JSON.stringify(v)}`);
      }
      default: {
        const texts = [...seen.filter((v): v is string => typeof v === 'string'), ...TEXT_POOL];
        const varied = fc.tuple(fc.constantFrom(...texts), fc.constantFrom('same', 'upper', 'lower', 'nfd', 'head', 'tail')).map(([t, how]) => vary(t, how));
        return fc.oneof(
          { weight: 6, arbitrary: fc.tuple(fc.constantFrom('eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'), varied).map(([op, v]) => `${spelled} ${op} ${JSON.stringify(v)}`) },
          { weight: 1, arbitrary: fc.constantFrom(`${spelled} pr`, `${spelled} eq null`, `${spelled} ne null`) },
        );
      }
    }
  });
  return fc.oneof(
    { weight: 3, arbitrary: leaf },
    { weight: 2, arbitrary: fc.tuple(leaf, fc.constantFrom('and', 'or'), leaf).map(([a, op, b]) => `${a} ${op} ${b}`) },
    { weight: 1, arbitrary: leaf.map((a) => `not (${a})`) },
    { weight: 1, arbitrary: fc.tuple(leaf, leaf, leaf).map(([a, b, c]) => `(${a} or ${b}) and not (${c})`) },
  );
}

function vary(text: string, how: string): string {
  switch (how) {
    case 'upper':
      return text.toUpperCase();
    case 'lower':
      return text.toLowerCase();
    case 'nfd':
      return text.normalize('NFD');
    case 'head':
      return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
    case 'tail':
      return text.slice(Math.floor(text.length / 2));
    default:
      return text;
  }
}

function getPathSafe(model: ResourceModel, resource: ScimResource, path: string): unknown {
  try {
    return getPath(model, resource, path);
  } catch {
    return undefined;
  }
}

function typeOfSafe(model: ResourceModel, path: string): string {
  try {
    return typeOf(model, path);
  } catch {
    return 'string';
  }
}
