import { StoreUnavailableError, unavailableAgain } from '../../store/store-unavailable.js';

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
 *
 * A write that finds the store unavailable (`StoreUnavailableError`) fails the writes queued behind
 * it at once with the same answer (503), instead of letting each wait its own timeout in turn: a
 * queue of n writes to one resource during a database stall would otherwise wait n timeouts
 * (docs/operations/database-failures.md, "Bounds").
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<StoreUnavailableError | undefined>>();
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
    const previous = this.tails.get(key) ?? Promise.resolve(undefined);
    let release!: (unavailable: StoreUnavailableError | undefined) => void;
    // Settles only after `previous` (release runs after awaiting it), so it is the new tail.
    const mine = new Promise<StoreUnavailableError | undefined>((resolve) => (release = resolve));
    this.tails.set(key, mine);
    let unavailable: StoreUnavailableError | undefined;
    try {
      const ahead = await previous;
      if (ahead !== undefined) {
        unavailable = unavailableAgain(ahead);
        throw unavailable;
      }
      return await work();
    } catch (error) {
      if (error instanceof StoreUnavailableError) unavailable = error;
      throw error;
    } finally {
      release(unavailable);
      if (this.tails.get(key) === mine) {
        this.tails.delete(key);
        this.carried.delete(key);
      }
    }
  }
}
