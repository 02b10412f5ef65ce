import { StoredVersions } from '../../json/stored-versions.js';
import { ElementKeyCache } from '../../patch/element-key-cache.js';
import type { KeyKind } from '../../patch/value-key.js';
import type { MultiValuedChange, ScimStore } from '../../store/scim-store.js';
import { readTopLevel } from '../../store/unique-value.js';
import { MemberDigests } from '../membership/member-digest.js';
import { RecentVersions, type RecentVersionsLimits } from '../write/recent-versions.js';
import { ElementSizes } from '../write/resource-size.js';

type Resource = Readonly<Record<string, unknown>>;

/** One committed write, as {@link ServerCaches.afterWrite} needs to know it. */
export interface CommittedWrite {
  /** The stored version the write replaced. */
  readonly before: Resource;
  /** The version the store now holds, as the store returned it. */
  readonly after: Resource;
  /** What the server checked and handed to the store (the sizes its check worked out are its arrays'). */
  readonly sent?: Resource;
  /** The element-level changes the write made (`WriteContext.changes`). */
  readonly changes?: readonly MultiValuedChange[];
  /** A store's cascade (`DeleteContext.references`): it took the elements keyed like `value` out of `attribute`. */
  readonly removed?: { readonly attribute: string; readonly kind: KeyKind; readonly value: string };
}

/**
 * Everything one server derives from stored versions of resources and keeps: the element sizes of
 * stored arrays (resource-size.ts), the member digests of stored groups (member-digest.ts) and the
 * element-key indexes of large stored arrays (element-key-cache.ts). One per server, made by
 * `createScimServer` and shared by its tenants (entries are keyed by the stored objects themselves,
 * which never cross tenants); never shared between servers; nothing of it is module-level.
 *
 * Invariant: an array registered in `versions` is part of a stored version and is never changed,
 * with every value in it, for as long as it lives; every value kept here is derived from such an
 * array alone (keyed by it, weakly), so it stays valid for the array's lifetime and goes with it.
 * Registration is explicit and happens in two places only: {@link adopt}, when the server reads a
 * resource from a store, and {@link afterWrite}, the one call the write paths make once a store
 * committed a write. Both register only when the store declares `capabilities.immutableResults`
 * (the memory store's deep-frozen versions); with any other store nothing is registered or kept,
 * and each value is derived again per request: the same answers, computed each time.
 *
 * Apart from those, `recent` keeps the last stored version seen of recently read or written
 * resources, bounded by entries and bytes, as the base a PUT or PATCH may start from without a
 * read. Its invariant is its own (recent-versions.ts): an entry is only ever the base of a
 * compare-and-swap, never an answer. It is used only when the core owns ids and versions (the
 * default): then a tenant, type, id and version name one content for good (ids are random and
 * never reused, a version is a per-resource counter), so a swap that succeeds from an entry
 * proves the entry was the stored resource. With `capabilities.versions` or `ids` `'store'`
 * (an application may write the rows itself) nothing is kept.
 * See docs/architecture.md, "Server caches".
 */
export class ServerCaches {
  readonly versions = new StoredVersions();
  readonly elementKeys = new ElementKeyCache(this.versions);
  readonly sizes = new ElementSizes(this.versions);
  readonly digests = new MemberDigests(this.versions);
  readonly recent: RecentVersions;
  readonly #immutable: boolean;

  constructor(store: Pick<ScimStore, 'capabilities'>, recent: RecentVersionsLimits) {
    const capabilities = store.capabilities;
    this.#immutable = capabilities?.immutableResults === true;
    const coreOwned = capabilities?.versions !== 'store' && capabilities?.ids !== 'store';
    this.recent = new RecentVersions(coreOwned ? recent : { maxEntries: 0, maxBytes: 0 });
  }

  /** A resource the server read from its store: registered as a stored version when the store vouches for it. */
  adopt<T extends Resource>(resource: T): T {
    if (this.#immutable) this.versions.register(resource);
    return resource;
  }

  /**
   * After a store committed a write: `after` becomes a stored version, and what was kept of
   * `before`'s changed arrays moves to `after`'s, updated by the change alone (sizes, indexes).
   */
  afterWrite(write: CommittedWrite): void {
    if (!this.#immutable) return;
    const { before, after, sent, changes, removed } = write;
    this.versions.register(after);
    if (removed !== undefined) {
      this.elementKeys.carryRemoval(before[removed.attribute], after[removed.attribute], removed.kind, removed.value);
    }
    if (changes === undefined) return;
    for (const change of changes) {
      const { attribute } = change;
      this.elementKeys.carry(readTopLevel(before, attribute), readTopLevel(after, attribute), change.removed, change.added.length);
    }
    if (sent !== undefined) this.sizes.carry(sent, after, changes);
  }
}
