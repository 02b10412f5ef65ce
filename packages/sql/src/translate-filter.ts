import type { AttrPath, AttributeFacts, AttributeType, CompareFilter, CompValue, Filter, PresentFilter } from '@scimkit/core';
import { comparisonKey } from '@scimkit/core';
import { sql, type RawBuilder } from 'kysely';
import { dialectSql, type DialectSql, type SqlDialectName } from './dialect.js';

/** Where the value of an attribute path is, for the translator. */
export type ColumnTarget =
  /** A column holding the attribute's only value. `emptyIsAbsent`: an empty string reads as no value (one element of a multi-valued attribute). */
  | {
      readonly kind: 'column';
      readonly sql: RawBuilder<unknown>;
      readonly type: AttributeType;
      readonly caseExact: boolean;
      readonly emptyIsAbsent?: boolean;
      /** Only values this accepts can equal the column's (a UUID for a uuid column). */
      readonly accepts?: (value: string) => boolean;
      /** The column as text, for a column of another type (a uuid id): used for all but equality. */
      readonly text?: RawBuilder<unknown>;
      /** The value's comparison key (NFC, lower-cased) as a column, for caseExact:false text where the dialect cannot compute it. */
      readonly folded?: RawBuilder<unknown>;
    }
  /** The store never holds this attribute: every comparison is false, `pr` too. */
  | { readonly kind: 'absent' }
  /** Values kept as rows of another table (`members.value` in a join table). */
  | { readonly kind: 'rows'; readonly any: RawBuilder<boolean>; readonly equals: (value: string) => RawBuilder<boolean> };

/** Resolves filter and sort paths to columns. Undefined: not translatable (evaluated over read rows instead). */
export interface ColumnResolver {
  resolve(path: AttrPath, facts: AttributeFacts | undefined): ColumnTarget | undefined;
}

export interface TranslateOptions {
  readonly dialect: SqlDialectName | DialectSql;
  readonly resolver: ColumnResolver;
  /** Schema facts of a path (`StoreQuery.semantics.attribute`, `FilterDecision.attribute`). */
  readonly facts: (path: AttrPath) => AttributeFacts | undefined;
}

/**
 * A filter as SQL. `exact`: the SQL holds for exactly the rows the in-memory evaluator matches
 * (RFC 7644 §3.4.2.2 with caseExact, NFC keys, `ne` as not-`eq`, instants). Otherwise `where` is a
 * superset (it never drops a match) and each row it finds must be confirmed with
 * `StoreQuery.semantics.matches`; `untranslated` names the paths that made it so.
 */
export interface TranslatedFilter {
  readonly where: RawBuilder<boolean>;
  readonly exact: boolean;
  readonly untranslated: readonly string[];
}

const TRUE = sql<boolean>`(1 = 1)`;
const FALSE = sql<boolean>`(1 = 0)`;

/**
 * How a translation takes the values of the filter's comparisons: as they are (translateFilter), or
 * as the placeholders of a statement kept by the filter's shape (query-shapes.ts). Every read of a
 * comparison's value goes through one of the two, so that a kept statement knows which of its
 * parameters each value makes and which facts of a value its text was built on.
 */
export interface ValueBinder {
  /** What the statement holds for the value `derive` makes of `leaf`'s value (a parameter). */
  param(leaf: CompareFilter, derive: (value: CompValue) => unknown): unknown;
  /** A fact of `leaf`'s value the statement's text depends on (a primitive, compared with `Object.is`). */
  decide<T extends string | number | boolean | undefined>(leaf: CompareFilter, decide: (value: CompValue) => T): T;
}

/** The values as they are. */
const DIRECT: ValueBinder = { param: (leaf, derive) => derive(leaf.value), decide: (leaf, decide) => decide(leaf.value) };

/** Translates a filter AST to a SQL condition through `resolver` (docs/stores/own-tables.md has a Drizzle example). */
export function translateFilter(filter: Filter, options: TranslateOptions): TranslatedFilter {
  return translateFilterWith(filter, options, DIRECT);
}

/** translateFilter, its values taken through `binder`. */
export function translateFilterWith(filter: Filter, options: TranslateOptions, binder: ValueBinder): TranslatedFilter {
  const dialect = typeof options.dialect === 'string' ? dialectSql(options.dialect) : options.dialect;
  const untranslated = new Set<string>();
  try {
    const out = node(filter, { ...options, dialect, untranslated, binder });
    return { where: out.sql, exact: out.exact, untranslated: [...untranslated] };
  } catch (error) {
    if (error instanceof RangeError) return { where: TRUE, exact: false, untranslated: ['(nested too deeply)'] };
    throw error;
  }
}

interface Context extends TranslateOptions {
  readonly dialect: DialectSql;
  readonly untranslated: Set<string>;
  readonly binder: ValueBinder;
}

interface Part {
  readonly sql: RawBuilder<boolean>;
  readonly exact: boolean;
}

function node(filter: Filter, context: Context): Part {
  switch (filter.kind) {
    case 'and':
    case 'or': {
      const operands: Filter[] = [];
      let current: Filter = filter;
      while (current.kind === filter.kind) {
        operands.push(current.right);
        current = current.left;
      }
      operands.push(current);
      operands.reverse();
      const parts = operands.map((operand) => node(operand, context));
      const joined = sql.join(
        parts.map((p) => p.sql),
        sql.raw(filter.kind === 'and' ? ' AND ' : ' OR '),
      );
      return { sql: sql<boolean>`(${joined})`, exact: parts.every((p) => p.exact) };
    }
    case 'not': {
      const inner = node(filter.filter, context);
      // A superset negated is a subset: only an exact inner part can be negated in SQL.
      return inner.exact ? { sql: sql<boolean>`(NOT ${inner.sql})`, exact: true } : { sql: TRUE, exact: false };
    }
    case 'present':
    case 'compare':
      return leaf(filter, context);
    case 'valuePath':
      context.untranslated.add(pathName(filter.path));
      return { sql: TRUE, exact: false };
  }
}

function pathName(path: AttrPath): string {
  return `${path.uri === undefined ? '' : `${path.uri}:`}${path.attr}${path.subAttr === undefined ? '' : `.${path.subAttr}`}`;
}

function leaf(filter: CompareFilter | PresentFilter, context: Context): Part {
  const facts = context.facts(filter.path);
  // An attribute no schema knows matches nothing (the evaluator's rule; the core refuses it before).
  if (facts === undefined) return { sql: FALSE, exact: true };
  const target = context.resolver.resolve(filter.path, facts);
  if (target === undefined) {
    context.untranslated.add(facts.fullPath);
    return { sql: TRUE, exact: false };
  }
  if (target.kind === 'absent') {
    // Absent: `eq null` and `ne <value>` hold; `pr`, `ne null` and every other comparison do not.
    const holds = filter.kind === 'compare' && ((filter.value === null && filter.op === 'eq') || (filter.value !== null && filter.op === 'ne'));
    return { sql: holds ? TRUE : FALSE, exact: true };
  }
  if (target.kind === 'rows') {
    if (filter.kind === 'present') return { sql: target.any, exact: true };
    const type = context.binder.decide(filter, typeOf);
    if (type === 'null') return filter.op === 'eq' ? { sql: sql<boolean>`(NOT ${target.any})`, exact: true } : filter.op === 'ne' ? { sql: target.any, exact: true } : untranslatable(facts, context);
    if ((filter.op === 'eq' || filter.op === 'ne') && type === 'string') {
      const caseExact = facts.caseExact;
      // A parameter: the resolver's `equals` holds it as a value only.
      const needle = context.binder.param(filter, (v) => (caseExact ? v : String(v).toLowerCase())) as string;
      const equals = target.equals(needle);
      return { sql: filter.op === 'eq' ? equals : sql<boolean>`(NOT ${equals})`, exact: true };
    }
    return untranslatable(facts, context);
  }
  const column = target.text ?? target.sql;
  const present = presence(target, context);
  if (filter.kind === 'present') return { sql: present, exact: true };
  if (context.binder.decide(filter, typeOf) === 'null') {
    if (filter.op === 'eq') return { sql: sql<boolean>`(NOT ${present})`, exact: true };
    if (filter.op === 'ne') return { sql: present, exact: true };
    return untranslatable(facts, context);
  }
  const op = filter.op === 'ne' ? 'eq' : filter.op;
  const test = comparison(target, column, op, filter, context);
  if (test === undefined) return untranslatable(facts, context);
  const held = sql<boolean>`(${present} AND ${test.sql})`;
  if (filter.op !== 'ne') return { sql: held, exact: test.exact };
  return test.exact ? { sql: sql<boolean>`(NOT ${held})`, exact: true } : { sql: TRUE, exact: false };
}

function untranslatable(facts: AttributeFacts, context: Context): Part {
  context.untranslated.add(facts.fullPath);
  return { sql: TRUE, exact: false };
}

function presence(target: Extract<ColumnTarget, { kind: 'column' }>, context: Context): RawBuilder<boolean> {
  const c = target.text ?? target.sql;
  if (target.type === 'string' || target.type === 'reference' || target.type === 'binary') return sql<boolean>`(${c} IS NOT NULL AND ${context.dialect.binaryCompare(c, '>', sql`''`)})`;
  return sql<boolean>`(${c} IS NOT NULL)`;
}

const ORDER: Readonly<Record<string, '=' | '<' | '<=' | '>' | '>='>> = { eq: '=', gt: '>', ge: '>=', lt: '<', le: '<=' };

/** The JSON type of a comparison's value: what every translation decides first. */
const typeOf = (value: CompValue): string => (value === null ? 'null' : typeof value);

/** A dateTime value as milliseconds since the epoch (a date alone is midnight UTC); NaN when it is none. */
const instantOf = (value: CompValue): number => (typeof value === 'string' ? Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value) : Number.NaN);

/**
 * The needle of a text test (co, sw, ew), `derive` of the value: the dialect's tests use it as a
 * parameter and look at whether it is empty, so that is decided first, and a non-empty needle is
 * handed over as the binder's parameter (a placeholder, never read as text, for a kept statement).
 */
function needle(filter: CompareFilter, derive: (value: string) => string, context: Context): string {
  if (context.binder.decide(filter, (v) => derive(String(v)).length === 0)) return '';
  return context.binder.param(filter, (v) => derive(String(v))) as string;
}

function comparison(
  target: Extract<ColumnTarget, { kind: 'column' }>,
  c: RawBuilder<unknown>,
  op: Exclude<CompareFilter['op'], 'ne'>,
  filter: CompareFilter,
  context: Context,
): Part | undefined {
  const { dialect, binder } = context;
  const type = binder.decide(filter, typeOf);
  const value = (derive: (value: CompValue) => unknown = (v) => v) => binder.param(filter, derive);
  switch (target.type) {
    case 'boolean':
      return op === 'eq' && type === 'boolean' ? { sql: sql<boolean>`(${c} = ${dialect.bool(binder.decide(filter, (v) => v === true))})`, exact: true } : undefined;
    case 'integer':
    case 'decimal':
      return type === 'number' && ORDER[op] !== undefined ? { sql: sql<boolean>`(${c} ${sql.raw(ORDER[op] as string)} ${value()})`, exact: true } : undefined;
    case 'dateTime': {
      if (!binder.decide(filter, (v) => !Number.isNaN(instantOf(v))) || ORDER[op] === undefined) return undefined;
      return { sql: sql<boolean>`(${dialect.instantMs(c)} ${sql.raw(ORDER[op] as string)} ${value(instantOf)})`, exact: true };
    }
    case 'string':
    case 'reference':
    case 'binary': {
      if (type !== 'string') return undefined;
      const accepts = target.accepts;
      if (accepts !== undefined && !binder.decide(filter, (v) => accepts(String(v)))) {
        // Not a value the column can hold (a non-UUID for a uuid column): equality is false; order is read back.
        return op === 'eq' ? { sql: FALSE, exact: true } : undefined;
      }
      if (target.caseExact || target.type === 'binary') {
        const same = (v: string) => v;
        if (op === 'eq') return { sql: dialect.name === 'mysql' ? dialect.binaryCompare(c, '=', sql`${value()}`) : sql<boolean>`(${target.sql} = ${value()})`, exact: true };
        if (op === 'co') return { sql: dialect.contains(c, needle(filter, same, context)), exact: true };
        if (op === 'sw') return { sql: dialect.startsWith(c, needle(filter, same, context)), exact: true };
        if (op === 'ew') return { sql: dialect.endsWith(c, needle(filter, same, context)), exact: true };
        return { sql: dialect.binaryCompare(c, ORDER[op] as '=', sql`${value()}`), exact: true };
      }
      // caseExact false: every operator compares the NFC, lower-cased key (the evaluator's comparisonKey).
      const folded = target.folded ?? dialect.foldKey(c);
      if (folded !== undefined) {
        const key = (v: string) => comparisonKey(v, false);
        if (op === 'eq') return { sql: sql<boolean>`(${folded} = ${value((v) => key(String(v)))})`, exact: true };
        if (op === 'co') return { sql: dialect.contains(folded, needle(filter, key, context)), exact: true };
        if (op === 'sw') return { sql: dialect.startsWith(folded, needle(filter, key, context)), exact: true };
        if (op === 'ew') return { sql: dialect.endsWith(folded, needle(filter, key, context)), exact: true };
        return { sql: dialect.binaryCompare(folded, ORDER[op] as '=', sql`${value((v) => key(String(v)))}`), exact: true };
      }
      const lower = dialect.lower(c);
      if (lower === undefined) return undefined;
      // No NFC in this dialect: narrow by the composed and decomposed forms, confirm after reading.
      // Not exact, so never a kept statement: the value is taken as it is (decided whole).
      const text = binder.decide(filter, (v) => String(v));
      const forms = [...new Set([comparisonKey(text, false), text.normalize('NFD').toLowerCase()])];
      const any = (test: (form: string) => RawBuilder<boolean>) => sql<boolean>`(${sql.join(forms.map(test), sql.raw(' OR '))})`;
      if (op === 'eq') return { sql: sql<boolean>`(${lower} IN (${sql.join(forms.map((f) => sql`${f}`))}))`, exact: false };
      if (op === 'co') return { sql: any((f) => dialect.contains(lower, f)), exact: false };
      if (op === 'sw') return { sql: any((f) => dialect.startsWith(lower, f)), exact: false };
      if (op === 'ew') return { sql: any((f) => dialect.endsWith(lower, f)), exact: false };
      return undefined;
    }
    default:
      return undefined;
  }
}
