import type { ScimResource } from '../../schema/scim-resource.js';

/** The bounds of a server's {@link RecentVersions} (`ScimServerConfig.recentVersions`). */
export interface RecentVersionsLimits {
  /** Most resources kept. 0 keeps none: every PUT and PATCH reads the resource first. */
  readonly maxEntries: number;
  /**
   * Most bytes kept, counted as the resources' JSON length (estimated). A resource over a sixteenth
   * of it, or over 64 KiB (a group of some hundreds of members), is never kept.
   */
  readonly maxBytes: number;
}

/** The largest resource kept: larger ones (large groups) are read by each write, or carried between queued writes. */
const MAX_ENTRY_BYTES = 64 * 1024;

interface Entry {
  readonly resource: ScimResource;
  readonly bytes: number;
}

/**
 * The last stored version this server saw of recently read or written resources, keyed by tenant,
 * resource type and id (`versionKey`): the base a PUT or PATCH may start from instead of reading
 * the store (`updateResource`). Bounded by entries and by bytes; the least recently stored entry
 * goes first. One per server (part of its `ServerCaches`), never module-level.
 *
 * Invariant: an entry is only ever the base of a compare-and-swap. Nothing is answered from it: a
 * write that starts from it succeeds only if the store still holds that version, and every other
 * outcome starts over from a read (docs/architecture.md, "Server caches"). So an entry may be stale
 * (another instance wrote since, or deleted the resource) without any answer being wrong; a stale
 * entry costs one missed statement, and the read that follows replaces it.
 */
export class RecentVersions {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #maxEntryBytes: number;
  #bytes = 0;

  constructor(limits: RecentVersionsLimits) {
    this.#maxEntries = limits.maxEntries;
    this.#maxBytes = limits.maxBytes;
    this.#maxEntryBytes = Math.min(MAX_ENTRY_BYTES, Math.floor(limits.maxBytes / 16));
  }

  /** Whether anything is ever kept. */
  get enabled(): boolean {
    return this.#maxEntries > 0 && this.#maxEntryBytes > 0;
  }

  /** How many resources are kept, and their estimated bytes. */
  get size(): { readonly entries: number; readonly bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }

  /** The version last kept under `key`, if any. */
  get(key: string): ScimResource | undefined {
    return this.#entries.get(key)?.resource;
  }

  /** Keeps `resource` as the version last seen under `key` (a resource too large to keep drops what was kept). */
  remember(key: string, resource: ScimResource): void {
    if (!this.enabled) return;
    const bytes = estimateBytes(resource, this.#maxEntryBytes);
    this.forget(key);
    if (bytes > this.#maxEntryBytes) return;
    this.#entries.set(key, { resource, bytes });
    this.#bytes += bytes;
    while (this.#entries.size > this.#maxEntries || this.#bytes > this.#maxBytes) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.forget(oldest.value);
    }
  }

  /** Drops what was kept under `key`. */
  forget(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}

/** The key of a resource in {@link RecentVersions} (and of its writes in the server's `KeyedMutex`). */
export function versionKey(tenant: string | undefined, resourceType: string, id: string): string {
  return `${tenant ?? ''}\u0000${resourceType}\u0000${id}`;
}

/** Deepest nesting walked: a resource nested deeper is not kept. */
const MAX_DEPTH = 32;

/**
 * About the length of `value`'s JSON (strings by their length, numbers as 8 characters), counted
 * only until it exceeds `cap`: a large group is not walked past the point where it is too large to keep.
 */
export function estimateBytes(value: unknown, cap: number): number {
  const walk = { bytes: 0, cap };
  add(walk, value, 0);
  return walk.bytes;
}

function add(walk: { bytes: number; readonly cap: number }, value: unknown, depth: number): void {
  if (typeof value === 'string') walk.bytes += value.length + 3;
  else if (typeof value !== 'object' || value === null) walk.bytes += 8;
  else if (depth >= MAX_DEPTH) walk.bytes = walk.cap + 1;
  else if (Array.isArray(value)) {
    walk.bytes += 2 + value.length;
    for (let i = 0; i < value.length && walk.bytes <= walk.cap; i++) add(walk, value[i], depth + 1);
  } else {
    walk.bytes += 2;
    for (const key in value) {
      walk.bytes += key.length + 4;
      add(walk, (value as Record<string, unknown>)[key], depth + 1);
      if (walk.bytes > walk.cap) return;
    }
  }
}
