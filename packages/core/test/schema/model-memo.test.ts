import { describe, expect, it } from 'vitest';
import { builtinResourceTypes, createSchemaRegistry, projectResource, validateResource, type ResourceModel } from '../../src/schema/index.js';
import { MODEL_MEMO, memoOf, memoSlot } from '../../src/schema/model-memo.js';
import { modelLayout } from '../../src/schema/model-layout.js';
import { topLevelAttributes } from '../../src/schema/top-level-attributes.js';

const userModel = (): ResourceModel => {
  const model = createSchemaRegistry({ resourceTypes: builtinResourceTypes }).resourceType('User');
  if (model === undefined) throw new Error('the built-in User type is registered');
  return model;
};

describe('ModelMemo (docs/architecture.md, "Server caches")', () => {
  it('belongs to one model: two registries (two servers) over the same built-in schemas keep separate values', () => {
    const [a, b] = [userModel(), userModel()];
    expect(memoOf(a)).toBe(memoOf(a));
    expect(memoOf(a)).not.toBe(memoOf(b));
    expect(modelLayout(a)).toBe(modelLayout(a));
    expect(modelLayout(a)).not.toBe(modelLayout(b));
    expect(topLevelAttributes(a)).toEqual(topLevelAttributes(b));
  });

  it('makes a value once per model, and once per definition of it', () => {
    const model = userModel();
    const memo = memoOf(model);
    let made = 0;
    const slot = memoSlot('test', () => ({ made: ++made }));
    const unset = memoSlot('unset', () => (made++, undefined));
    expect(memo.get(slot, model)).toBe(memo.get(slot, model));
    // A value that is undefined is kept too.
    expect(memo.get(unset, model)).toBe(memo.get(unset, model));
    const [one, two] = [[], []];
    expect(memo.of(slot, one)).toBe(memo.of(slot, one));
    expect(memo.of(slot, two)).not.toBe(memo.of(slot, one));
    expect(made).toBe(4);
  });

  it('is hidden from the model\'s own members, and a model made by hand gets the same answers, derived per call', () => {
    const model = userModel();
    expect(Object.keys(model)).not.toContain(String(MODEL_MEMO));
    expect(Object.getOwnPropertyDescriptor(model, MODEL_MEMO)?.enumerable).toBe(false);
    const byHand: ResourceModel = { ...model };
    expect(memoOf(byHand)).not.toBe(memoOf(byHand));
    const user = { schemas: [model.core.id], userName: 'bjensen', emails: [{ value: 'b@example.com', type: 'work' }] };
    expect(validateResource(byHand, user, { operation: 'create' })).toEqual(validateResource(model, user, { operation: 'create' }));
    const stored = { ...user, id: '1', meta: { resourceType: 'User', created: '', lastModified: '', version: '' } };
    expect(projectResource(byHand, stored)).toEqual(projectResource(model, stored));
  });
});
