import { CompiledQuery, isOperationNodeSource, type Kysely, type QueryResult, type RawBuilder, type Transaction } from 'kysely';

/** Where a value of one call goes in a statement compiled once. */
class Slot {
  constructor(readonly index: number) {}
}

/** How many shapes one store keeps compiled (a bound, though a store has a few dozen). */
const MAX_SHAPES = 500;

/**
 * The statements of one store, compiled once per shape: Kysely builds and compiles a statement on
 * every call, the same text each time for one shape (its values are parameters); this keeps the text
 * and binds each call's values to it. One per store, never shared between stores.
 */
export interface StatementShapes {
  /**
   * Runs the statement `build` makes of `values`. The first call of a `key` builds it with
   * placeholders in place of the values and compiles it; later calls bind their values to that
   * text. So `build` must use its arguments only as values of the statement (never decide on them),
   * and `key` must name everything else the text depends on. A value that is itself SQL is compiled
   * every time.
   */
  run<R>(on: Kysely<any> | Transaction<any>, key: string, values: readonly unknown[], build: (...values: unknown[]) => RawBuilder<R>): Promise<QueryResult<R>>;
}

export function statementShapes(db: Kysely<any>): StatementShapes {
  const shapes = new Map<string, { readonly text: string; readonly parameters: readonly unknown[] }>();
  return {
    run(on, key, values, build) {
      if (values.some((value) => isOperationNodeSource(value))) return build(...values).execute(on);
      let shape = shapes.get(key);
      if (shape === undefined) {
        const compiled = build(...values.map((_, index) => new Slot(index))).compile(db);
        shape = { text: compiled.sql, parameters: compiled.parameters };
        if (shapes.size < MAX_SHAPES) shapes.set(key, shape);
      }
      const parameters = shape.parameters.map((p) => (p instanceof Slot ? values[p.index] : p));
      return on.executeQuery(CompiledQuery.raw(shape.text, parameters)) as Promise<QueryResult<any>>;
    },
  };
}
