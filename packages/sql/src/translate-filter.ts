import type { AttrPath, AttributeFacts, AttributeType, CompareFilter, Filter, PresentFilter } from '@scimkit/core';
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

/** Translates a filter AST to a SQL condition through `resolver` (docs/stores/own-tables.md has a Drizzle example). */
export function translateFilter(filter: Filter, options: TranslateOptions): TranslatedFilter {
  const dialect = typeof options.dialect === 'string' ? dialectSql(options.dialect) : options.dialect;
  const untranslated = new Set<string>();
  try {
    const out = node(filter, { ...options, dialect, untranslated });
    return { where: out.sql, exact: out.exact, untranslated: [...untranslated] };
  } catch (error) {
    if (error instanceof RangeError) return { where: TRUE, exact: false, untranslated: ['(nested too deeply)'] };
    throw error;
  }
}

interface Context extends TranslateOptions {
  readonly dialect: DialectSql;
  readonly untranslated: Set<string>;
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
    if (filter.value === null) return filter.op === 'eq' ? { sql: sql<boolean>`(NOT ${target.any})`, exact: true } : filter.op === 'ne' ? { sql: target.any, exact: true } : untranslatable(facts, context);
    if ((filter.op === 'eq' || filter.op === 'ne') && typeof filter.value === 'string') {
      const needle = facts.caseExact ? filter.value : filter.value.toLowerCase();
      const equals = target.equals(needle);
      return { sql: filter.op === 'eq' ? equals : sql<boolean>`(NOT ${equals})`, exact: true };
    }
    return untranslatable(facts, context);
  }
  const column = target.text ?? target.sql;
  const present = presence(target, context);
  if (filter.kind === 'present') return { sql: present, exact: true };
  if (filter.value === null) {
    if (filter.op === 'eq') return { sql: sql<boolean>`(NOT ${present})`, exact: true };
    if (filter.op === 'ne') return { sql: present, exact: true };
    return untranslatable(facts, context);
  }
  const op = filter.op === 'ne' ? 'eq' : filter.op;
  const test = comparison(target, column, op, filter.value, context);
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

function comparison(
  target: Extract<ColumnTarget, { kind: 'column' }>,
  c: RawBuilder<unknown>,
  op: Exclude<CompareFilter['op'], 'ne'>,
  value: string | number | boolean,
  context: Context,
): Part | undefined {
  const dialect = context.dialect;
  switch (target.type) {
    case 'boolean':
      return op === 'eq' && typeof value === 'boolean' ? { sql: sql<boolean>`(${c} = ${dialect.bool(value)})`, exact: true } : undefined;
    case 'integer':
    case 'decimal':
      return typeof value === 'number' && ORDER[op] !== undefined ? { sql: sql<boolean>`(${c} ${sql.raw(ORDER[op] as string)} ${value})`, exact: true } : undefined;
    case 'dateTime': {
      const ms = typeof value === 'string' ? Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value) : Number.NaN;
      if (Number.isNaN(ms) || ORDER[op] === undefined) return undefined;
      return { sql: sql<boolean>`(${dialect.instantMs(c)} ${sql.raw(ORDER[op] as string)} ${ms})`, exact: true };
    }
    case 'string':
    case 'reference':
    case 'binary': {
      if (typeof value !== 'string') return undefined;
      if (target.accepts !== undefined && !target.accepts(value)) {
        // Not a value the column can hold (a non-UUID for a uuid column): equality is false; order is read back.
        return op === 'eq' ? { sql: FALSE, exact: true } : undefined;
      }
      if (target.caseExact || target.type === 'binary') {
        if (op === 'eq') return { sql: dialect.name === 'mysql' ? dialect.binaryCompare(c, '=', sql`${value}`) : sql<boolean>`(${target.sql} = ${value})`, exact: true };
        if (op === 'co') return { sql: dialect.contains(c, value), exact: true };
        if (op === 'sw') return { sql: dialect.startsWith(c, value), exact: true };
        if (op === 'ew') return { sql: dialect.endsWith(c, value), exact: true };
        return { sql: dialect.binaryCompare(c, ORDER[op] as '=', sql`${value}`), exact: true };
      }
      // caseExact false: every operator compares the NFC, lower-cased key (the evaluator's comparisonKey).
      const key = comparisonKey(value, false);
      const folded = target.folded ?? dialect.foldKey(c);
      if (folded !== undefined) {
        if (op === 'eq') return { sql: sql<boolean>`(${folded} = ${key})`, exact: true };
        if (op === 'co') return { sql: dialect.contains(folded, key), exact: true };
        if (op === 'sw') return { sql: dialect.startsWith(folded, key), exact: true };
        if (op === 'ew') return { sql: dialect.endsWith(folded, key), exact: true };
        return { sql: dialect.binaryCompare(folded, ORDER[op] as '=', sql`${key}`), exact: true };
      }
      const lower = dialect.lower(c);
      if (lower === undefined) return undefined;
      // No NFC in this dialect: narrow by the composed and decomposed forms, confirm after reading.
      const forms = [...new Set([key, value.normalize('NFD').toLowerCase()])];
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
