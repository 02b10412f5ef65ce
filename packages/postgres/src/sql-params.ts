import type { CompareFilter } from '@scimkit/core';

/** Where a bound parameter comes from: a comparison of the filter, and how its value becomes the parameter (undefined: it cannot). */
export interface ParamSource {
  readonly leaf: CompareFilter;
  readonly derive: (value: string | number | boolean) => unknown;
}

/** Bound parameters of one statement: `add(value)` returns its placeholder (`$3`). */
export class SqlParams {
  readonly values: unknown[] = [];
  /** For each parameter taken from a filter's value, where it came from (see query-shapes.ts); undefined for the others. */
  readonly sources: (ParamSource | undefined)[] = [];

  constructor(initial: readonly unknown[] = []) {
    for (const value of initial) this.values.push(value);
  }

  add(value: unknown, source?: ParamSource): string {
    this.values.push(value);
    this.sources[this.values.length - 1] = source;
    return `$${this.values.length}`;
  }
}
