import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/patch/index.js';
import { body, sampleGroup, groupModel } from './patch-fixtures.js';

const N = 20_000;
const ids = (prefix: string) => Array.from({ length: N }, (_, i) => ({ value: `${prefix}-${i}` }));

/** Adding or removing k members among n is O(n + k): a quadratic engine would take tens of seconds here. */
describe('large groups', () => {
  it(`adds ${N} members to a group of ${N}, skipping the ones already there`, () => {
    const group = { ...sampleGroup(), members: ids('old') };
    const started = performance.now();
    const result = applyPatch(groupModel, group, body({ op: 'add', path: 'members', value: [...ids('new'), ...ids('old').slice(0, 100)] }));
    const elapsed = performance.now() - started;
    if (!result.ok) throw new Error(result.error.detail);
    expect((result.value.resource.members as unknown[]).length).toBe(2 * N);
    expect(elapsed).toBeLessThan(3000);
  });

  it(`removes ${N / 2} members listed in a value array (Entra) from a group of ${N}`, () => {
    const group = { ...sampleGroup(), members: ids('m') };
    const started = performance.now();
    const result = applyPatch(groupModel, group, body({ op: 'Remove', path: 'members', value: ids('m').filter((_, i) => i % 2 === 0) }));
    const elapsed = performance.now() - started;
    if (!result.ok) throw new Error(result.error.detail);
    expect((result.value.resource.members as { value: string }[]).map((m) => m.value)).toEqual(ids('m').filter((_, i) => i % 2 === 1).map((m) => m.value));
    expect(elapsed).toBeLessThan(3000);
  });
});

describe('large groups, value filters', () => {
  it(`removes the ${N / 2} members a filter selects from a group of ${N}`, () => {
    const members = Array.from({ length: N }, (_, i) => ({ value: `${i % 2 === 0 ? 'even' : 'odd'}-${i}` }));
    const started = performance.now();
    const result = applyPatch(groupModel, { ...sampleGroup(), members }, body({ op: 'remove', path: 'members[value sw "even"]' }));
    const elapsed = performance.now() - started;
    if (!result.ok) throw new Error(result.error.detail);
    expect((result.value.resource.members as unknown[]).length).toBe(N / 2);
    expect(elapsed).toBeLessThan(3000);
  });
});
