import type { ResourceModel } from './resource-model.js';

/** One kind of value derived from a model (`K`: the model) or from one of its definitions, declared where it is derived. */
export interface MemoSlot<K, T> {
  readonly name: string;
  /** Derives the value: a pure function of `key`. */
  readonly make: (key: K) => T;
}

/** A kind of value derived from a model, or from one of its definitions (an attribute, a list of attributes). */
export function memoSlot<K, T>(name: string, make: (key: K) => T): MemoSlot<K, T> {
  return { name, make };
}

/**
 * What the core derives from one resource model's configuration alone and keeps: its layout, its
 * top-level attributes, the names a projection reads, the attributes returned on request, the PATCH
 * paths it resolved, the index of each list of attributes… One per model, made with it by
 * `createResourceModel` (so one per resource type per server: each server's schema registry makes
 * its own models) and collected with it; nothing of it is module-level.
 *
 * Invariant: a model and its definitions never change (they are built once and frozen), so a value
 * derived from them alone is valid for the model's lifetime. Only such values are kept here (the PATCH
 * paths also depend on the path limits they were parsed under, and say so: patch-target-cache.ts).
 */
export class ModelMemo {
  readonly #values = new Map<MemoSlot<never, unknown>, unknown>();
  readonly #byDefinition = new WeakMap<object, Map<MemoSlot<never, unknown>, unknown>>();

  /** The value of `slot` for `model` (this memo's model), made the first time. */
  get<T>(slot: MemoSlot<ResourceModel, T>, model: ResourceModel): T {
    const known = this.#values.get(slot);
    if (known !== undefined || this.#values.has(slot)) return known as T;
    const value = slot.make(model);
    this.#values.set(slot, value);
    return value;
  }

  /** The value of `slot` for `definition` (one of the model's own definitions), made the first time. */
  of<K extends object, T>(slot: MemoSlot<K, T>, definition: K): T {
    let values = this.#byDefinition.get(definition);
    if (values === undefined) this.#byDefinition.set(definition, (values = new Map()));
    const known = values.get(slot);
    if (known !== undefined || values.has(slot)) return known as T;
    const value = slot.make(definition);
    values.set(slot, value);
    return value;
  }
}

/** The key under which `createResourceModel` gives a model its memo (not an enumerable, public member). */
export const MODEL_MEMO: unique symbol = Symbol('scimkit.modelMemo');

/**
 * The memo of `model`: its own when `createResourceModel` made it; for a model made otherwise, a
 * new, empty one (the values are then derived again on each call: the same answers, not kept).
 */
export function memoOf(model: ResourceModel): ModelMemo {
  return (model as { readonly [MODEL_MEMO]?: ModelMemo })[MODEL_MEMO] ?? new ModelMemo();
}
