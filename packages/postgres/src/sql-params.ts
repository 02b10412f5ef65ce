/** Bound parameters of one statement: `add(value)` returns its placeholder (`$3`). */
export class SqlParams {
  readonly values: unknown[] = [];

  constructor(initial: readonly unknown[] = []) {
    this.values.push(...initial);
  }

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
