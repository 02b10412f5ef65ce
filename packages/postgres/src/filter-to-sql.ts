import type { AttributeFacts, CompareFilter, Filter, PresentFilter, ValuePathFilter } from '@scimkit/core';
import { escapeLike } from './like-pattern.js';
import { resolvePath, type ResolvedPath } from './resolve-path.js';
import { anyAt, memberRows, type JsonRef, type SqlScope } from './sql-scope.js';
import { holdsNul } from './unkeepable-value.js';

/** RFC 7644 §3.4.2.2 `pr`: some leaf below the value is a non-empty string, a number or a boolean (the evaluator's isNonEmpty). */
const NON_EMPTY = `'strict $.** ? (@.type() == "number" || @.type() == "boolean" || (@.type() == "string" && @ != ""))'`;

/** Where a leaf's value is read: a stored resource `r`, or one element of `parent[…]`. */
type Place =
  | { readonly kind: 'resource' }
  | { readonly kind: 'element'; readonly parent: ResolvedPath; readonly holder: string };

/** A leaf path resolved in its place: the holder to start from, the keys below it, and the target's facts. */
interface Located {
  readonly holder: string;
  readonly keys: readonly string[];
  readonly multiValued: readonly boolean[];
  readonly target: AttributeFacts;
  /** The value lives in the members table (`members.value`, `members[type eq "User"]`). */
  readonly members: boolean;
}

/**
 * The whole filter AST as one SQL boolean over the row `r` (RFC 7644 §3.4.2.2), with exactly the
 * in-memory evaluator's semantics, and every comparison value a bound parameter. `ne` is the
 * negation of `eq` (decisions: it matches when the attribute is unassigned). SQL NULL stands for
 * false, which AND and OR preserve; `not` turns it into false before negating.
 * Undefined when some part cannot be translated: the store then evaluates the query in memory.
 */
export function filterToSql(filter: Filter, scope: SqlScope): string | undefined {
  try {
    return node(filter, scope, { kind: 'resource' });
  } catch (error) {
    // A hand-built tree too deep for the stack: evaluate in memory, where the core refuses it.
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

function node(filter: Filter, scope: SqlScope, place: Place): string | undefined {
  switch (filter.kind) {
    case 'and':
    case 'or': {
      const operands = chain(filter);
      const parts: string[] = [];
      for (const operand of operands) {
        const sql = node(operand, scope, place);
        if (sql === undefined) return undefined;
        parts.push(`(${sql})`);
      }
      return parts.join(filter.kind === 'and' ? ' AND ' : ' OR ');
    }
    case 'not': {
      const inner = node(filter.filter, scope, place);
      return inner === undefined ? undefined : negate(inner);
    }
    case 'present':
      return present(filter, scope, place);
    case 'compare':
      return compare(filter, scope, place);
    case 'valuePath':
      return valuePath(filter, scope, place);
    default:
      return undefined;
  }
}

/** `a and b and c` is a left-nested chain: its operands in order, without recursion. */
function chain(filter: Filter & { kind: 'and' | 'or' }): Filter[] {
  const operands: Filter[] = [];
  let current: Filter = filter;
  while (current.kind === filter.kind) {
    operands.push(current.right);
    current = current.left;
  }
  operands.push(current);
  return operands.reverse();
}

function negate(sql: string): string {
  return `NOT coalesce((${sql}), false)`;
}

function present(filter: PresentFilter, scope: SqlScope, place: Place): string | undefined {
  const at = locate(filter.path, scope, place);
  if (at === null) return 'false';
  if (at === undefined) return undefined;
  return read(at, scope, (v) => `jsonb_path_exists(${v.json}, ${NON_EMPTY})`);
}

/** `leaf`: the comparison of the filter the values come from (a `ne` translates as the negated `eq` of the same leaf). */
function compare(filter: CompareFilter, scope: SqlScope, place: Place, leaf: CompareFilter = filter): string | undefined {
  // A text parameter cannot hold U+0000 (PostgreSQL refuses it): the evaluator answers in memory.
  if (typeof filter.value === 'string' && holdsNul(filter.value)) return undefined;
  if (filter.value === null) {
    // RFC 7643 §2.5: `eq null` holds when the attribute is unassigned, `ne null` when it has a value.
    const has = present({ kind: 'present', path: filter.path }, scope, place);
    if (has === undefined) return undefined;
    if (filter.op === 'eq') return negate(has);
    return filter.op === 'ne' ? has : undefined;
  }
  if (filter.op === 'ne') {
    const eq = compare({ ...filter, op: 'eq' }, scope, place, leaf);
    return eq === undefined ? undefined : negate(eq);
  }
  let at = locate(filter.path, scope, place);
  if (at === null) return 'false';
  if (at === undefined) return undefined;
  if (at.target.type === 'complex') {
    // A multi-valued complex attribute named alone compares its `value` (RFC 7644 §3.4.2.2, `emails co "x"`).
    if (!at.target.multiValued || place.kind !== 'resource' || filter.path.subAttr !== undefined) return undefined;
    at = locate({ ...filter.path, subAttr: 'value' }, scope, place);
    if (at === null || at === undefined) return undefined;
  }
  const located = at;
  const { op, value } = filter;
  if (located.members && op === 'eq' && typeof value === 'string' && isMemberValue(located)) {
    // `members.value eq "id"`: the indexed member_id column (kept only for string values).
    const needle = scope.params.add(value, { leaf, derive: same });
    const alias = scope.alias();
    const test = located.target.caseExact ? `${alias}.member_id = ${needle}` : `${equalityKey(`${alias}.member_id`)} = ${equalityKey(needle)}`;
    return `EXISTS (SELECT 1 FROM ${memberRows(scope, alias)} AND ${test})`;
  }
  const test = valueTest(located.target, op, value, scope, leaf);
  return test === undefined ? undefined : read(located, scope, test);
}

function isMemberValue(at: Located): boolean {
  return at.keys.length === 1 && at.keys[0]?.toLowerCase() === 'value';
}

function valuePath(filter: ValuePathFilter, scope: SqlScope, place: Place): string | undefined {
  if (place.kind !== 'resource') return undefined;
  const parent = resolvePath(filter.path, scope.semantics);
  if (parent === undefined) return 'false';
  if (parent.subAttribute !== undefined) return undefined;
  const complex = parent.target.type === 'complex';
  if (!complex && !parent.target.multiValued) return undefined;
  if (isMembers(parent, scope)) {
    const alias = scope.alias();
    const inner = node(filter.filter, scope, { kind: 'element', parent, holder: `${alias}.element` });
    if (inner === undefined) return undefined;
    return `EXISTS (SELECT 1 FROM ${memberRows(scope, alias)} AND jsonb_typeof(${alias}.element) = 'object' AND (${inner}))`;
  }
  let failed = false;
  const sql = anyAt(scope, 'r.data', parent.keys, parent.multiValued, (element) => {
    const inner = node(filter.filter, scope, { kind: 'element', parent, holder: element.json });
    if (inner === undefined) failed = true;
    return complex ? `jsonb_typeof(${element.json}) = 'object' AND (${inner})` : `(${inner})`;
  });
  return failed ? undefined : sql;
}

function isMembers(path: ResolvedPath, scope: SqlScope): boolean {
  return !path.extension && scope.memberAttribute !== undefined && path.attribute.toLowerCase() === scope.memberAttribute.toLowerCase();
}

/**
 * Resolves a leaf's path in its place. `null`: the resource type has no such attribute (the core
 * accepted the filter because another searched type has it), so the leaf is false. Undefined:
 * cannot be translated.
 */
function locate(path: CompareFilter['path'], scope: SqlScope, place: Place): Located | null | undefined {
  if (place.kind === 'resource') {
    const resolved = resolvePath(path, scope.semantics);
    if (resolved === undefined) return null;
    if (isMembers(resolved, scope)) {
      return { holder: '', keys: resolved.keys.slice(1), multiValued: resolved.multiValued.slice(1), target: resolved.target, members: true };
    }
    return { holder: 'r.data', keys: resolved.keys, multiValued: resolved.multiValued, target: resolved.target, members: false };
  }
  // Inside `parent[…]`: a bare sub-attribute name, or `value` for the element of a simple multi-valued attribute.
  if (path.uri !== undefined || path.subAttr !== undefined) return null;
  const parent = place.parent;
  if (parent.target.type !== 'complex') {
    if (path.attr.toLowerCase() !== 'value') return null;
    return { holder: place.holder, keys: [], multiValued: [], target: { ...parent.target, multiValued: false }, members: false };
  }
  const urn = parent.extension ? parent.keys[0] : undefined;
  const sub = resolvePath({ ...(urn === undefined ? {} : { uri: urn }), attr: parent.attribute, subAttr: path.attr }, scope.semantics);
  if (sub?.subAttribute === undefined) return null;
  return { holder: place.holder, keys: [sub.subAttribute], multiValued: [sub.target.multiValued && !parent.target.multiValued], target: sub.target, members: false };
}

/** `test` on the located value: through the members table, or through the jsonb of `r.data` / the element. */
function read(at: Located, scope: SqlScope, test: (value: JsonRef) => string): string {
  if (!at.members) return anyAt(scope, at.holder, at.keys, at.multiValued, test);
  const alias = scope.alias();
  return `EXISTS (SELECT 1 FROM ${memberRows(scope, alias)} AND ${anyAt(scope, `${alias}.element`, at.keys, at.multiValued, test)})`;
}

/** RFC 7644 §3.4.2.2 Table 3 on one value, by the attribute's type (the evaluator's compareTest). */
function valueTest(target: AttributeFacts, op: CompareFilter['op'], value: string | number | boolean, scope: SqlScope, leaf: CompareFilter): ((v: JsonRef) => string) | undefined {
  const params = scope.params;
  switch (target.type) {
    case 'string':
    case 'reference':
    case 'binary': {
      if (typeof value !== 'string') return undefined;
      const exact = target.caseExact || target.type === 'binary';
      // caseExact false: every operator compares the core's comparisonKey (NFC, lower-cased), as the evaluator does.
      const fold = (sql: string): string => (exact ? sql : equalityKey(sql));
      // The stored side: eq (and ne) as the lookup indexes are built; the others, which no index
      // serves and which read every candidate row, skip normalize() for an all-ASCII value (always NFC).
      const foldStored = (sql: string): string => (exact ? sql : op === 'eq' || op === 'ne' ? equalityKey(sql) : scanKey(sql));
      let right: string;
      let operator: string;
      if (op === 'co' || op === 'sw' || op === 'ew') {
        const derive = LIKE_PATTERN[op];
        right = fold(params.add(derive(value), { leaf, derive }));
        operator = 'LIKE';
      } else {
        right = fold(params.add(value, { leaf, derive: same }));
        operator = SQL_OPERATOR[op];
      }
      if (!exact && operator === 'LIKE') return (v) => likeOnScan(v, right);
      const ordered = op === 'gt' || op === 'ge' || op === 'lt' || op === 'le';
      // UTF-16 code-unit order in JavaScript is code-point order in "C" but for astral characters.
      return (v) => `jsonb_typeof(${v.json}) = 'string' AND ${foldStored(v.text)}${ordered ? ' COLLATE "C"' : ''} ${operator} ${right}`;
    }
    case 'boolean': {
      if (typeof value !== 'boolean' || op !== 'eq') return undefined;
      const literal = params.add(String(value), { leaf, derive: String });
      return (v) => `jsonb_typeof(${v.json}) = 'boolean' AND ${v.text} = ${literal}`;
    }
    case 'integer':
    case 'decimal': {
      if (typeof value !== 'number' || !Number.isFinite(value) || op === 'co' || op === 'sw' || op === 'ew') return undefined;
      const number = params.add(String(value), { leaf, derive: String });
      return (v) => `CASE WHEN jsonb_typeof(${v.json}) = 'number' THEN (${v.text})::numeric END ${SQL_OPERATOR[op]} ${number}::numeric`;
    }
    case 'dateTime': {
      if (typeof value !== 'string' || op === 'co' || op === 'sw' || op === 'ew') return undefined;
      const instant = parseInstant(value);
      if (instant === undefined) return undefined;
      const at = params.add(instant, { leaf, derive: instantOf });
      return (v) => `${scope.tables.instant}(CASE WHEN jsonb_typeof(${v.json}) = 'string' THEN ${v.text} END) ${SQL_OPERATOR[op]} ${at}::timestamptz`;
    }
    default:
      return undefined;
  }
}

/** The core's comparisonKey for caseExact false, in SQL: the expression the lookup indexes are built on. */
function equalityKey(sql: string): string {
  return `lower(normalize(${sql}, NFC))`;
}

/**
 * The same key as equalityKey, cheaper on a scan: normalize() costs about a microsecond a row even
 * when there is nothing to normalize, and a string whose characters are all ASCII (its length in
 * bytes is its length in characters) is NFC already.
 */
function scanKey(sql: string): string {
  return `lower(CASE WHEN octet_length(${sql}) = char_length(${sql}) THEN ${sql} ELSE normalize(${sql}, NFC) END)`;
}

/**
 * `co`, `sw`, `ew` with caseExact false: `jsonb_typeof(json) = 'string' AND scanKey(text) LIKE
 * pattern`, written so that a row which does not match (most rows of a scan) costs less: its text
 * lower-cased and compared first, as is, which decides for an all-ASCII string (NFC already), and
 * only a string that is not all-ASCII pays normalize(). The same answer for every value, NULL for
 * a missing one (the differential test's random filters check it against the evaluator).
 */
function likeOnScan(v: JsonRef, pattern: string): string {
  const ascii = `octet_length(${v.text}) = char_length(${v.text})`;
  const string = `jsonb_typeof(${v.json}) = 'string'`;
  const normalized = `lower(normalize(${v.text}, NFC)) LIKE ${pattern}`;
  return `CASE WHEN lower(${v.text}) LIKE ${pattern} THEN ${string} AND (${ascii} OR ${normalized}) WHEN ${ascii} THEN false ELSE ${string} AND ${normalized} END`;
}

const SQL_OPERATOR = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' } as const;

/** How a comparison value becomes its parameter (ParamSource.derive): as it is, as a LIKE pattern, as an instant. */
const same = (value: string | number | boolean): unknown => value;
const LIKE_PATTERN = {
  co: (value: string | number | boolean): string => `%${escapeLike(String(value))}%`,
  sw: (value: string | number | boolean): string => `${escapeLike(String(value))}%`,
  ew: (value: string | number | boolean): string => `%${escapeLike(String(value))}`,
} as const;
const instantOf = (value: string | number | boolean): string | undefined => (typeof value === 'string' ? parseInstant(value) : undefined);

/** The comparison value as an ISO instant, read as the evaluator reads it (no offset: UTC). */
function parseInstant(text: string): string | undefined {
  const withZone = /(?:[Zz]|[+-]\d{2}:\d{2})$/.test(text) ? text : text.includes('T') ? `${text}Z` : text;
  const ms = Date.parse(withZone);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}
