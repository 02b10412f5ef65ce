import type { ResourceModel, ResolvedAttribute } from './resource-model.js';
import { memoOf, memoSlot } from './model-memo.js';
import { topLevelAttributes } from './top-level-attributes.js';

/**
 * What `validateResource` looks up for each top-level key of a body and needs not derive per request:
 * the position of each extension by its lower-cased URN (in `model.extensions`), and the resolution
 * of each top-level attribute's name as the schema spells it (`userName`, `emails`: what clients
 * send), which is `model.resolve({ uri: core, attr: name })`'s answer for that name. Any other key
 * (other spelling, URN-qualified) goes to `model.resolve` as before.
 *
 * Invariant: derived from the model alone (frozen, see ModelMemo), so valid for its lifetime; bounded
 * by its schemas (one entry per extension and per top-level attribute), kept in the model's memo.
 */
export interface ValidationPlan {
  readonly extensionByUrn: ReadonlyMap<string, number>;
  readonly coreByName: ReadonlyMap<string, ResolvedAttribute>;
}

export function validationPlan(model: ResourceModel): ValidationPlan {
  return memoOf(model).get(PLAN, model);
}

/** Derived once per model, kept in its memo. */
const PLAN = memoSlot('validationPlan', (model: ResourceModel): ValidationPlan => {
  const extensionByUrn = new Map<string, number>();
  model.extensions.forEach((e, index) => {
    const urn = e.schema.id.toLowerCase();
    // Two extensions with one URN: the last, as `new Map(entries)` keeps it.
    extensionByUrn.set(urn, index);
  });
  const coreByName = new Map<string, ResolvedAttribute>();
  for (const attribute of topLevelAttributes(model)) {
    const resolved = model.resolve({ uri: model.core.id, attr: attribute.name });
    if (resolved !== undefined) coreByName.set(attribute.name, resolved);
  }
  return { extensionByUrn, coreByName };
});
