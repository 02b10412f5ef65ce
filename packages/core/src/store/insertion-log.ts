/**
 * The order resources were created in, as ascending sequence numbers that are never reused: the
 * memory store's unsorted order and the tie-breaker of its keyset cursors. A deleted resource
 * leaves a hole (compacted away once holes are half the log), so a position keeps its meaning
 * after the resource at it is gone: the walk continues from the sequence number, not the resource.
 */
export class InsertionLog {
  private ids: (string | undefined)[] = [];
  private seqs: number[] = [];
  private readonly seqOf = new Map<string, number>();
  private nextSeq = 0;
  private holes = 0;

  /** The sequence number of a live resource. */
  seq(id: string): number | undefined {
    return this.seqOf.get(id);
  }

  append(id: string): void {
    const seq = this.nextSeq++;
    this.ids.push(id);
    this.seqs.push(seq);
    this.seqOf.set(id, seq);
  }

  remove(id: string): void {
    const seq = this.seqOf.get(id);
    if (seq === undefined) return;
    this.seqOf.delete(id);
    this.ids[this.firstAtOrAfter(seq)] = undefined;
    if (++this.holes > 1024 && this.holes * 2 > this.ids.length) this.compact();
  }

  /** Live ids with a sequence number above `seq` (all of them for -1), ascending. */
  *after(seq: number): Generator<[string, number]> {
    for (let i = this.firstAtOrAfter(seq + 1); i < this.ids.length; i++) {
      const id = this.ids[i];
      if (id !== undefined) yield [id, this.seqs[i] as number];
    }
  }

  /** Live ids with a sequence number below `seq`, descending. */
  *before(seq: number): Generator<[string, number]> {
    for (let i = this.firstAtOrAfter(seq) - 1; i >= 0; i--) {
      const id = this.ids[i];
      if (id !== undefined) yield [id, this.seqs[i] as number];
    }
  }

  /** Index of the first entry whose sequence number is ≥ `seq` (binary search). */
  private firstAtOrAfter(seq: number): number {
    let low = 0;
    let high = this.seqs.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.seqs[middle] as number) < seq) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private compact(): void {
    const ids: string[] = [];
    const seqs: number[] = [];
    for (let i = 0; i < this.ids.length; i++) {
      const id = this.ids[i];
      if (id === undefined) continue;
      ids.push(id);
      seqs.push(this.seqs[i] as number);
    }
    this.ids = ids;
    this.seqs = seqs;
    this.holes = 0;
  }
}
