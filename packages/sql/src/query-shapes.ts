import type { CompareFilter, CompValue, FilterSemantics, StoreQuery } from '@scimkit/core';
import { CompiledQuery, type Kysely, type RawBuilder } from 'kysely';
import { filterShape, sortShape } from '@scimkit/core/engine';
import type { ValueBinder } from './translate-filter.js';

/** What a query binds besides its filter's values: the tenant, the page's count and offset. */
export interface QueryValues {
  readonly tenant: string;
  readonly count: number;
  readonly offset: number;
}

/** A placeholder of a statement built once per shape, and what fills it for each query. */
class Slot {
  constructor(readonly fill: (leaves: readonly CompareFilter[], values: QueryValues) => unknown) {}
}

/** A fact of a comparison's value that the kept text was built on, and what it was. */
interface Decision {
  readonly leaf: number;
  readonly decide: (value: CompValue) => unknown;
  readonly outcome: unknown;
}

interface Entry {
  readonly text: string;
  /** Each a constant of the text, or a Slot. */
  readonly parameters: readonly unknown[];
  readonly decisions: readonly Decision[];
}

/** The slots of the query's own values, for `build` (QueryShapes.compiled). */
export interface QuerySlots {
  readonly tenant: unknown;
  readonly count: unknown;
  readonly offset: unknown;
}

/**
 * The statements of one store's queries, compiled once per shape of the query (the core's `filterShape`:
 * the filter with its values taken out, and the sort) and per what the caller's key names (the
 * statement's kind, the resource type, the select list): a `userName eq` with another value reuses
 * the text, and its parameters are derived again from the new value. Kysely builds and compiles a
 * statement anew on every call; this is what the PostgreSQL store's query-shapes.ts keeps, here on
 * Kysely's compiled SQL.
 *
 * Invariant: an entry's text and constant parameters depend only on its key and on the schema
 * facts (`FilterSemantics.attribute`) the filter was translated with, which is why entries are kept
 * per facts function (weakly: the server hands the same function, its resource model's, for every
 * query of a type; a function made per query only ever misses). Every fact of a value the
 * translation decided on (its type, emptiness, whether the column can hold it, whether it is an
 * instant) is recorded with its outcome (ValueBinder.decide) and checked again for each query: a
 * value with another outcome is translated afresh, as it would be without this cache. Only exact
 * translations are kept; at most `limit` shapes per facts function, the least recently used going
 * first (SQLite's page numbers are written into its statements, so its pages make a shape each).
 * One per store instance (createSqlStore), never module-level.
 */
export class QueryShapes {
  readonly #bySchema = new WeakMap<FilterSemantics['attribute'], Map<string, Entry>>();
  readonly slots: QuerySlots = {
    tenant: new Slot((_, values) => values.tenant),
    count: new Slot((_, values) => values.count),
    offset: new Slot((_, values) => values.offset),
  };

  constructor(
    private readonly db: Kysely<any>,
    private readonly limit = 256,
  ) {}

  /**
   * `query`'s statement of the kind `key` names, compiled with its values: a kept one, or the one
   * `build` makes now (kept when its shape can be). `build` takes the filter's values through the
   * binder it is given and the query's own values as `slots`, and answers undefined when the query
   * is not that one statement (a filter or sort not translated exactly): nothing is kept then.
   */
  compiled(query: StoreQuery, key: string, values: QueryValues, build: (binder: ValueBinder, slots: QuerySlots) => RawBuilder<unknown> | undefined): CompiledQuery | undefined {
    const shape = query.filter === undefined ? NO_FILTER : filterShape(query.filter);
    const sort = sortShape(query.sort);
    if (shape === undefined || sort === undefined) return this.#direct(values, build);
    const full = `${key}\u0000${sort}\u0000${shape.key}`;
    let kept = this.#bySchema.get(query.semantics.attribute);
    const entry = kept?.get(full);
    if (entry !== undefined && kept !== undefined && entry.decisions.every((d) => Object.is(d.decide(shape.leaves[d.leaf]?.value ?? null), d.outcome))) {
      // Most recently used last: the first is the one to go.
      kept.delete(full);
      kept.set(full, entry);
      return bind(entry, shape.leaves, values);
    }
    const decisions: Decision[] = [];
    let keepable = true;
    const binder: ValueBinder = {
      param: (leaf, derive) => {
        const at = shape.leaves.indexOf(leaf);
        if (at < 0) keepable = false;
        return new Slot(at < 0 ? () => derive(leaf.value) : (leaves) => derive(leaves[at]?.value ?? null));
      },
      decide: (leaf, decide) => {
        const at = shape.leaves.indexOf(leaf);
        const outcome = decide(leaf.value);
        if (at < 0) keepable = false;
        else decisions.push({ leaf: at, decide, outcome });
        return outcome;
      },
    };
    const statement = build(binder, this.slots);
    if (statement === undefined) return undefined;
    const compiled = statement.compile(this.db);
    const made: Entry = { text: compiled.sql, parameters: compiled.parameters, decisions };
    if (keepable) {
      if (kept === undefined) this.#bySchema.set(query.semantics.attribute, (kept = new Map()));
      // A failed check left a stale entry under this key: the new one replaces it.
      kept.delete(full);
      if (kept.size >= this.limit) kept.delete(kept.keys().next().value as string);
      kept.set(full, made);
    }
    return bind(made, shape.leaves, values);
  }

  /** A statement of a query whose shape is not kept: its values as they are, compiled each time. */
  #direct(values: QueryValues, build: (binder: ValueBinder, slots: QuerySlots) => RawBuilder<unknown> | undefined): CompiledQuery | undefined {
    const direct: ValueBinder = { param: (leaf, derive) => derive(leaf.value), decide: (leaf, decide) => decide(leaf.value) };
    const statement = build(direct, this.slots);
    if (statement === undefined) return undefined;
    const compiled = statement.compile(this.db);
    return bind({ text: compiled.sql, parameters: compiled.parameters, decisions: [] }, [], values);
  }
}

const NO_FILTER = { key: '', leaves: [] as readonly CompareFilter[] };

function bind(entry: Entry, leaves: readonly CompareFilter[], values: QueryValues): CompiledQuery {
  const parameters = entry.parameters.map((p) => (p instanceof Slot ? p.fill(leaves, values) : p));
  return CompiledQuery.raw(entry.text, parameters);
}
