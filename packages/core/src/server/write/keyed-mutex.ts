/**
 * Serializes async work per key within one server: writes to one resource run one after another,
 * so concurrent PATCHes without `If-Match` never lose an update and never spin on the store's
 * compare-and-swap. (Other processes sharing the store are still handled by the CAS retry.)
 * Idle keys hold no memory.
 *
 * A holder may `leave` a value for the next holder of the key (the resource as its write stored it),
 * which the next `take`s instead of reading the store again: on a resource written by many requests
 * at once, each write then costs the store one call, not a read and a write. The value is dropped
 * as soon as nobody waits for the key.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();
  private readonly carried = new Map<string, unknown>();

  /** Hands `value` to the next holder of `key` (kept only while someone waits for it). */
  leave(key: string, value: unknown): void {
    this.carried.set(key, value);
  }

  /** What the previous holder of `key` left, once; undefined when it left nothing. */
  take(key: string): unknown {
    const value = this.carried.get(key);
    if (value !== undefined) this.carried.delete(key);
    return value;
  }

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) {
        this.tails.delete(key);
        this.carried.delete(key);
      }
    }
  }
}
