import type { MultiValuedChange } from '../store/scim-store.js';

/**
 * What a PATCH result shares with the stored resource, for one schema's members (the core
 * attributes, or one extension's): the values `validateResource` can take as they are, because
 * they are the stored, already validated values themselves.
 */
export interface MemberBaseline {
  /** True when `value`, given for the member `key`, is the stored value itself and the PATCH did not write `key`. */
  unchanged(key: string, value: unknown): boolean;
  /**
   * For a multi-valued member whose elements a PATCH only added or removed: how many leading
   * elements of `value` are stored elements, kept in their order (only the rest need checking).
   */
  kept(key: string, path: string, value: readonly unknown[]): number;
}

/**
 * The baselines of a PATCH result (`touched` and `changes` as `applyPatch` reported them), schema by
 * schema. Classes, not closures: one PATCH validation makes a few of these, and a closure per
 * method would be made on every request.
 */
export class PatchBaselines {
  /** `touched` and the changed attributes folded for case-insensitive lookups, on first use. */
  #touched: Set<string> | undefined;
  #changes: Set<string> | undefined;

  constructor(
    private readonly touchedKeys: ReadonlySet<string>,
    private readonly changeList: readonly MultiValuedChange[] | undefined,
  ) {}

  /**
   * The baseline of one schema's members: `stored` the stored members of that schema (the resource,
   * or the object under the extension URN), `urn` the extension's (undefined for the core).
   */
  of(stored: Record<string, unknown> | undefined, urn: string | undefined): MemberBaseline | undefined {
    return stored === undefined ? undefined : new StoredMembers(stored, urn === undefined, this);
  }

  /** Whether the PATCH wrote the top-level key `key` (ignoring case). */
  wrote(key: string): boolean {
    if (this.touchedKeys.has(key)) return true;
    if (this.#touched === undefined) {
      this.#touched = new Set();
      for (const name of this.touchedKeys) this.#touched.add(name.toLowerCase());
    }
    return this.#touched.has(key.toLowerCase());
  }

  /** Whether the elements of the attribute at `path` were only added or removed (ignoring case). */
  changedElements(path: string): boolean {
    if (this.changeList === undefined || this.changeList.length === 0) return false;
    if (this.#changes === undefined) {
      this.#changes = new Set();
      for (const change of this.changeList) this.#changes.add(change.attribute.toLowerCase());
    }
    return this.#changes.has(path.toLowerCase());
  }
}

/** One schema's stored members. `topLevel`: they are the core's, so `touched` names them. */
class StoredMembers implements MemberBaseline {
  constructor(
    private readonly stored: Record<string, unknown>,
    private readonly topLevel: boolean,
    private readonly baselines: PatchBaselines,
  ) {}

  unchanged(key: string, value: unknown): boolean {
    if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) return false;
    // Extension members are compared one by one (their container is what `touched` names).
    return this.storedValue(key) === value && !(this.topLevel && this.baselines.wrote(key));
  }

  kept(key: string, path: string, value: readonly unknown[]): number {
    const before = this.storedValue(key);
    if (!Array.isArray(before) || !this.baselines.changedElements(path)) return 0;
    // The stored elements the PATCH kept are the same objects, in the same order.
    let j = 0;
    for (let i = 0; i < before.length && j < value.length; i++) if (value[j] === before[i]) j++;
    return j;
  }

  private storedValue(key: string): unknown {
    return Object.prototype.hasOwnProperty.call(this.stored, key) ? this.stored[key] : undefined;
  }
}
