import type { FilterSemantics, StoreQuery } from '@scimkit/core';
import { sortShape } from '@scimkit/core/engine';
import { filterShape } from './filter-shape.js';
import { SqlParams } from './sql-params.js';
import type { SqlSort } from './sort-to-sql.js';

/** A statement built from a translation, kept with its name (StatementNames). */
export interface ShapedStatement {
  readonly text: string;
  readonly name: string | undefined;
}

/** A query's filter and sort in SQL (undefined: not translatable), and its parameters: tenant, type, then the filter's values. */
export interface Translation {
  readonly where: string | undefined;
  readonly sort: SqlSort | undefined;
  readonly params: SqlParams;
  /** Statements built from this translation, by what they are (see QueryShapes.statement). */
  readonly statements?: Map<string, ShapedStatement>;
}

interface Entry {
  readonly where: string;
  readonly sort: SqlSort;
  /** For each parameter after tenant and type: the index of the filter's comparison it comes from, and how. */
  readonly sources: readonly { readonly leaf: number; readonly derive: (value: string | number | boolean) => unknown }[];
  readonly statements: Map<string, ShapedStatement>;
}

/**
 * The translations of one store's queries, kept by the shape of the query (filter-shape.ts: the
 * filter with its values taken out, the sort, the resource type and the columns read), so that a
 * `userName eq` with another value reuses the WHERE, the sort and the statements built from them,
 * texts and names included, and only derives the values' parameters again.
 *
 * Invariant: an entry's SQL depends only on what its key holds and on the schema facts
 * (`FilterSemantics.attribute`) it was translated with, which is why entries are kept per facts
 * function (weakly: the server hands the same function, its resource model's, for every query of a
 * type; a function made per query only ever misses); a value decides nothing but its parameter,
 * except where filterShape or the parameter's derivation refuses it, and then the query is
 * translated afresh, as it would be without this cache. Only translatable queries are kept; at most
 * `limit` shapes per facts function, past which queries are translated each time (filters vary
 * without bound). One per store instance (createPostgresStore), never module-level.
 */
export class QueryShapes {
  readonly #bySchema = new WeakMap<FilterSemantics['attribute'], Map<string, Entry>>();

  constructor(private readonly limit = 256) {}

  /**
   * The translation of `query`'s filter and sort for `resourceType`: a kept one with this query's
   * values, or `translate`'s (with fresh parameters holding tenant and type), kept when it can be.
   * `columns` names what else the statements depend on (the members and referrers columns).
   */
  translate(query: StoreQuery, tenant: string, resourceType: string, columns: string, translate: (params: SqlParams) => { where: string | undefined; sort: SqlSort | undefined }): Translation {
    const shape = query.filter === undefined ? NO_FILTER : filterShape(query.filter);
    const sort = sortShape(query.sort);
    if (shape === undefined || sort === undefined) return fresh(tenant, resourceType, translate);
    const key = `${resourceType}\u0000${columns}\u0000${sort}\u0000${shape.key}`;
    let kept = this.#bySchema.get(query.semantics.attribute);
    const entry = kept?.get(key);
    if (entry !== undefined) {
      const params = new SqlParams([tenant, resourceType]);
      for (const source of entry.sources) {
        const value = shape.leaves[source.leaf]?.value;
        const derived = value === undefined || value === null ? undefined : source.derive(value);
        if (derived === undefined) return fresh(tenant, resourceType, translate);
        params.values.push(derived);
      }
      return { where: entry.where, sort: entry.sort, params, statements: entry.statements };
    }
    const translated = fresh(tenant, resourceType, translate);
    const { where, sort: sql, params } = translated;
    if (where === undefined || sql === undefined) return translated;
    const sources: Entry['sources'][number][] = [];
    for (let i = 2; i < params.values.length; i++) {
      const source = params.sources[i];
      const leaf = source === undefined ? -1 : shape.leaves.indexOf(source.leaf);
      if (source === undefined || leaf < 0) return translated;
      sources.push({ leaf, derive: source.derive });
    }
    if (kept === undefined) this.#bySchema.set(query.semantics.attribute, (kept = new Map()));
    if (kept.size >= this.limit) return translated;
    const statements = new Map<string, ShapedStatement>();
    kept.set(key, { where, sort: sql, sources, statements });
    return { ...translated, statements };
  }

  /** The statement `what` of a translation: built (and named) once per shape when the translation is kept, else each time. */
  static statement(translation: Translation, what: string, build: () => string, name: (text: string) => string | undefined): ShapedStatement {
    const kept = translation.statements?.get(what);
    if (kept !== undefined) return kept;
    const text = build();
    const statement = { text, name: name(text) };
    translation.statements?.set(what, statement);
    return statement;
  }
}

const NO_FILTER = { key: '', leaves: [] };

/** A translation made afresh: parameters holding tenant and type, then what `translate` adds. */
function fresh(tenant: string, resourceType: string, translate: (params: SqlParams) => { where: string | undefined; sort: SqlSort | undefined }): Translation {
  const params = new SqlParams([tenant, resourceType]);
  const { where, sort } = translate(params);
  return { where, sort, params };
}

