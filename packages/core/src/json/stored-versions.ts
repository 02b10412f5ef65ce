/**
 * The arrays one server knows to be parts of stored versions of resources that never change: the
 * explicit registration behind every value a server derives from a stored array and keeps (see
 * `ServerCaches` and docs/architecture.md, "Server caches").
 *
 * Invariant: an array registered here, and every value inside it, is never changed by anyone for
 * as long as it lives. Only what a store declaring `capabilities.immutableResults` returns is
 * registered (the memory store hands out its own deep-frozen versions); what any other store
 * returns is not, and every value derived from it is derived again per request. Keyed by identity,
 * weakly: a version's entries go with it.
 */
export class StoredVersions {
  readonly #arrays = new WeakSet<readonly unknown[]>();

  /**
   * Registers the arrays of `resource`: its top-level values and those of its extension records
   * (where multi-valued attributes live). The caller vouches for the invariant.
   */
  register(resource: Readonly<Record<string, unknown>>): void {
    for (const key in resource) {
      const value = resource[key];
      if (Array.isArray(value)) this.#arrays.add(value);
      else if (typeof value === 'object' && value !== null && key.includes(':')) {
        for (const inner in value) {
          const member = (value as Record<string, unknown>)[inner];
          if (Array.isArray(member)) this.#arrays.add(member);
        }
      }
    }
  }

  /** Whether `array` was registered: values derived from it may be kept for its lifetime. */
  has(array: readonly unknown[]): boolean {
    return this.#arrays.has(array);
  }
}
