import type { ResourceModel } from './resource-model.js';

/** One kind of value derived from a model, declared where it is derived (`memoSlot`). */
export interface MemoSlot<T> {
  readonly name: string;
  /** @internal the type of the value, for the compiler only */
  readonly type?: T;
}

/** A kind of value derived from a model, or from one of its definitions (an attribute, a list of attributes). */
export function memoSlot<T>(name: string): MemoSlot<T> {
  return { name };
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
  readonly #values = new Map<MemoSlot<unknown>, unknown>();
  readonly #byDefinition = new WeakMap<object, Map<MemoSlot<unknown>, unknown>>();

  /** The value of `slot`, made by `make` the first time. */
  get<T>(slot: MemoSlot<T>, make: () => T): T {
    if (this.#values.has(slot)) return this.#values.get(slot) as T;
    const value = make();
    this.#values.set(slot, value);
    return value;
  }

  /** The value of `slot` for `definition` (one of the model's own definitions), made by `make` the first time. */
  of<K extends object, T>(slot: MemoSlot<T>, definition: K, make: (definition: K) => T): T {
    let values = this.#byDefinition.get(definition);
    if (values === undefined) this.#byDefinition.set(definition, (values = new Map()));
    if (values.has(slot)) return values.get(slot) as T;
    const value = make(definition);
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
