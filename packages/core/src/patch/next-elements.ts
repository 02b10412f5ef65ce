import { copyArray } from '../json/copy-array.js';
import type { Appended } from './append-values.js';

/**
 * The array an `add` builds from `current` (often a large stored array): the values appended and the
 * elements merged into (by index) are kept aside, and `current` is copied once, at the end
 * ({@link result}). Indices run over `current` then the appended values.
 */
export class NextElements {
  private readonly appended: unknown[] = [];
  private merged: Map<number, unknown> | undefined;
  /** Indices of the elements written (appended or merged into), in the order written. */
  private readonly written: number[] = [];

  constructor(private readonly current: readonly unknown[]) {}

  /** The length of the array built so far. */
  get length(): number {
    return this.current.length + this.appended.length;
  }

  /** The element at `index` of the array built so far. */
  at(index: number): unknown {
    const { current, merged } = this;
    if (index >= current.length) return this.appended[index - current.length];
    return merged !== undefined && merged.has(index) ? merged.get(index) : current[index];
  }

  /** The first of `indices` (ascending), or of every index when not given, whose element `matches`; -1 when none. */
  firstMatching(indices: readonly number[] | undefined, matches: (element: unknown) => boolean): number {
    if (indices !== undefined) {
      for (const i of indices) if (matches(this.at(i))) return i;
      return -1;
    }
    const length = this.length;
    for (let i = 0; i < length; i++) if (matches(this.at(i))) return i;
    return -1;
  }

  /** Appends `value`: its index. */
  append(value: unknown): number {
    const index = this.current.length + this.appended.push(value) - 1;
    this.written.push(index);
    return index;
  }

  /** Notes that the element at `index` was written, with `value` (undefined: as it is). */
  write(index: number, value?: unknown): void {
    if (value !== undefined) {
      if (index >= this.current.length) this.appended[index - this.current.length] = value;
      else (this.merged ??= new Map()).set(index, value);
    }
    this.written.push(index);
  }

  /** The new elements, `current` itself when nothing was appended or merged. */
  result(): Appended {
    const { current, appended, merged, written } = this;
    if (appended.length === 0 && merged === undefined) return { elements: current, written, changed: false };
    const elements = copyArray(current, appended);
    if (merged !== undefined) for (const [index, value] of merged) elements[index] = value;
    return { elements, written, changed: true };
  }
}
