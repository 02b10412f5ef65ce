/** Smallest arena, in bytes. */
const MIN_BYTES = 64 * 1024;
/** A slot whose text is kept as a string (not Latin-1), or an empty slot. */
const AS_STRING = -2;
const EMPTY = -1;
/** A character outside Latin-1 (one byte per character). */
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;

/**
 * One text per slot, kept as bytes in a buffer outside the JavaScript heap (docs/performance.md,
 * "Request log"): a kept text is no object for the garbage collector to copy, promote, mark and
 * sweep, only bytes. A text with a character beyond Latin-1 is kept as the string it is. Texts are
 * appended; when the buffer is full the live ones are copied, compacted, into a new one twice their
 * size (64 KiB at least), so the buffer holds at most about twice what the slots hold.
 */
export class TextArena {
  private bytes: Buffer;
  private head = 0;
  /** Bytes the slots hold. */
  private live = 0;
  private readonly starts: Float64Array;
  /** Each slot's length in bytes, `EMPTY` or `AS_STRING`. */
  private readonly lengths: Float64Array;
  private readonly strings: (string | undefined)[];

  constructor(slots: number) {
    this.bytes = Buffer.allocUnsafe(MIN_BYTES);
    this.starts = new Float64Array(slots);
    this.lengths = new Float64Array(slots).fill(EMPTY);
    this.strings = new Array<string | undefined>(slots);
  }

  /** Keep `text` in slot `at` (replacing what was there). */
  put(at: number, text: string): void {
    this.clear(at);
    if (BEYOND_LATIN1.test(text)) {
      this.strings[at] = text;
      this.lengths[at] = AS_STRING;
      return;
    }
    const length = text.length;
    if (this.head + length > this.bytes.length) this.compact(length);
    this.bytes.write(text, this.head, 'latin1');
    this.starts[at] = this.head;
    this.lengths[at] = length;
    this.head += length;
    this.live += length;
  }

  /** The text of slot `at`; `undefined` for an empty slot. */
  get(at: number): string | undefined {
    const length = this.lengths[at] as number;
    if (length === AS_STRING) return this.strings[at];
    if (length === EMPTY) return undefined;
    const start = this.starts[at] as number;
    return this.bytes.toString('latin1', start, start + length);
  }

  has(at: number): boolean {
    return this.lengths[at] !== EMPTY;
  }

  clear(at: number): void {
    const length = this.lengths[at] as number;
    if (length === AS_STRING) this.strings[at] = undefined;
    else if (length > 0) this.live -= length;
    this.lengths[at] = EMPTY;
  }

  /** Copy the live texts to the start of a buffer with room for `more` bytes and as much again. */
  private compact(more: number): void {
    const size = Math.max(MIN_BYTES, 2 * (this.live + more));
    const target = Buffer.allocUnsafe(size);
    let at = 0;
    for (let slot = 0; slot < this.lengths.length; slot++) {
      const length = this.lengths[slot] as number;
      if (length <= 0) continue;
      const start = this.starts[slot] as number;
      this.bytes.copy(target, at, start, start + length);
      this.starts[slot] = at;
      at += length;
    }
    this.bytes = target;
    this.head = at;
  }
}
