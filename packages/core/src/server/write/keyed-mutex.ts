/**
 * Serializes async work per key within one server: writes to one resource run one after another,
 * so concurrent PATCHes without `If-Match` never lose an update and never spin on the store's
 * compare-and-swap. (Other processes sharing the store are still handled by the CAS retry.)
 * Idle keys hold no memory.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

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
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
