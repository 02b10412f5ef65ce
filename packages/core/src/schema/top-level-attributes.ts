import type { AttributeDefinition } from './attribute-definition.js';
import type { ResourceModel } from './resource-model.js';
import { memoOf, memoSlot } from './model-memo.js';

const COMMON = ['id', 'externalId', 'meta'] as const;

/**
 * The top-level attributes of a resource type's core schema, common attributes included
 * (RFC 7643 §3.1), in output order: id, externalId, the core schema's attributes, meta.
 */
export function topLevelAttributes(model: ResourceModel): readonly AttributeDefinition[] {
  return memoOf(model).get(TOP_LEVEL, model);
}

/** Derived once per model, kept in its memo. */
const TOP_LEVEL = memoSlot('topLevelAttributes', (model: ResourceModel): readonly AttributeDefinition[] => Object.freeze(compute(model)));

function compute(model: ResourceModel): AttributeDefinition[] {
  const common = COMMON.map((name) => model.resolve({ uri: model.core.id, attr: name })?.attribute);
  const [id, externalId, meta] = common;
  const names = new Set(COMMON.map((n) => n.toLowerCase()));
  const own = model.core.attributes.filter((a) => !names.has(a.name.toLowerCase()));
  return [id, externalId, ...own, meta].filter((a): a is AttributeDefinition => a !== undefined);
}
