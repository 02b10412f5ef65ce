import { describe, expect, it } from 'vitest';
import { applyPatch, type PatchOptions } from '../../src/patch/index.js';
import { cloneJson } from '../../src/json/clone-json.js';
import type { ScimResource } from '../../src/schema/scim-resource.js';
import { body, groupModel, sampleGroup, sampleUser, userModel } from './patch-fixtures.js';

const emails = (n: number) => Array.from({ length: n }, (_, i) => ({ value: `u${i}@example.com`, type: 'work' }));
const members = (n: number) => Array.from({ length: n }, (_, i) => ({ value: `m-${i}` }));

function timed(resource: ScimResource, model: typeof userModel, operations: unknown[], options?: PatchOptions) {
  const input = cloneJson(resource);
  // CPU time of this process, not wall time: the bound is about the work done, whatever else the
  // machine runs (vitest runs each test file in its own process).
  const started = process.cpuUsage();
  const result = applyPatch(model, resource, body(...operations), options);
  const used = process.cpuUsage(started);
  const elapsed = (used.user + used.system) / 1000;
  expect(resource).toEqual(input);
  return { result, elapsed };
}

/** 1,000 operations × 25,000 elements used to block the event loop for 4–15 s (a 60 KB request). */
describe('PATCH work budget', () => {
  const user = { ...sampleUser(), emails: emails(25_000) };

  it.each([
    ['primary on one element each', (i: number) => ({ op: 'replace', path: `emails[value eq "u${i}@example.com"].primary`, value: true })],
    ['a sub-attribute of every element', (i: number) => ({ op: 'replace', path: 'emails[value co "@"].display', value: `d${i}` })],
    ['the same value again and again', () => ({ op: 'replace', path: 'emails[value co "@"].type', value: 'work' })],
    ['whole elements', () => ({ op: 'add', path: 'emails[value co "@"]', value: { display: 'x' } })],
  ])('refuses 1,000 operations on 25,000 emails (%s) with 400 invalidValue, quickly', (_, op) => {
    const { result, elapsed } = timed(user, userModel, Array.from({ length: 1000 }, (_, i) => op(i)));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.status).toBe(400);
    expect(result.error.scimType).toBe('invalidValue');
    expect(result.error.detail).toMatch(/PATCH request too complex: more than 5000000 element comparisons; send fewer operations/);
    expect(elapsed).toBeLessThan(2000);
  });

  it('counts over the whole request and is configurable (maxElementVisits)', () => {
    const small = { ...sampleUser(), emails: emails(10) };
    const op = { op: 'replace', path: 'emails[type eq "work"].display', value: 'x' };
    // One operation: 10 examined + 10 selected × 8 = 90 visits.
    expect(applyPatch(userModel, small, body(op), { maxElementVisits: 90 }).ok).toBe(true);
    const refused = applyPatch(userModel, small, body(op, op), { maxElementVisits: 179 });
    expect(refused.ok ? undefined : refused.error.detail).toMatch(/^Operations\[1\]: PATCH request too complex: more than 179 element comparisons/);
    expect(applyPatch(userModel, small, body(op, op), { maxElementVisits: 180 }).ok).toBe(true);
  });

  it('still clears primary on the other elements, once per operation', () => {
    const result = applyPatch(userModel, { ...sampleUser(), emails: [{ value: 'a@x', primary: true }, { value: 'b@x' }, { value: 'c@x', primary: true }] }, body({ op: 'replace', path: 'emails[value eq "b@x"].primary', value: true }));
    if (!result.ok) throw new Error(result.error.detail);
    expect(result.value.resource.emails).toEqual([{ value: 'a@x', primary: false }, { value: 'b@x', primary: true }, { value: 'c@x', primary: false }]);
  });

  it('setting the value an element already has changes nothing', () => {
    const result = applyPatch(userModel, { ...sampleUser(), emails: emails(3) }, body({ op: 'replace', path: 'emails[value co "@"].type', value: 'work' }));
    if (!result.ok) throw new Error(result.error.detail);
    expect(result.value.changed).toBe(false);
  });
});

describe('PATCH work budget, large groups', () => {
  const N = 20_000;

  it(`lets 500 member add/remove operations (Entra) through on a group of ${N}`, () => {
    const operations = Array.from({ length: 500 }, (_, i) =>
      i % 2 === 0 ? { op: 'add', path: 'members', value: [{ value: `new-${i}` }] } : { op: 'Remove', path: 'members', value: [{ value: `m-${i}` }] },
    );
    const { result, elapsed } = timed({ ...sampleGroup(), members: members(N) }, groupModel, operations);
    if (!result.ok) throw new Error(result.error.detail);
    expect((result.value.resource.members as unknown[]).length).toBe(N);
    expect(elapsed).toBeLessThan(10_000);
  });

  it(`lets 200 filtered member removals through on a group of ${N}`, () => {
    const operations = Array.from({ length: 200 }, (_, i) => ({ op: 'remove', path: `members[value eq "m-${i}"]` }));
    const { result } = timed({ ...sampleGroup(), members: members(N) }, groupModel, operations);
    if (!result.ok) throw new Error(result.error.detail);
    expect((result.value.resource.members as unknown[]).length).toBe(N - 200);
  });
});

describe('PATCH work budget, appends', () => {
  it('counts each value an add appends, also on an empty attribute', () => {
    const empty = { ...sampleUser(), emails: undefined } as unknown as ScimResource;
    const add = { op: 'add', path: 'emails', value: emails(300) };
    // 300 values appended (no element to index; each written value's primary is checked).
    expect(applyPatch(userModel, empty, body(add), { maxElementVisits: 1000 }).ok).toBe(true);
    const refused = applyPatch(userModel, empty, body(add), { maxElementVisits: 299 });
    expect(refused.ok ? undefined : refused.error.detail).toMatch(/^Operations\[0\]: PATCH request too complex: more than 299 element comparisons/);
    const pathless = applyPatch(userModel, empty, body({ op: 'add', value: { emails: emails(300) } }), { maxElementVisits: 299 });
    expect(pathless.ok ? undefined : pathless.error.scimType).toBe('invalidValue');
  });
});

describe('PATCH work budget, indexed passes', () => {
  it('counts adding and removing by value at one visit per 4 elements', () => {
    const group = { ...sampleGroup(), members: members(400) };
    const add = { op: 'add', path: 'members', value: [{ value: 'new' }] };
    const remove = { op: 'remove', path: 'members', value: [{ value: 'new' }] };
    // add: 1 value appended + 400 elements / 4 = 101 visits; remove: 401 / 4 → 101.
    expect(applyPatch(groupModel, group, body(add, remove), { maxElementVisits: 202 }).ok).toBe(true);
    const refused = applyPatch(groupModel, group, body(add, remove), { maxElementVisits: 201 });
    expect(refused.ok ? undefined : refused.error.detail).toMatch(/^Operations\[1\]: PATCH request too complex/);
  });

  // Building, copying and comparing 100,000 members around the measured call takes a while: a longer timeout.
  it('refuses 1,000 add/remove operations on a group of 100,000 quickly', () => {
    const operations = Array.from({ length: 1000 }, (_, i) =>
      i % 2 === 0 ? { op: 'add', path: 'members', value: [{ value: `new-${i}` }] } : { op: 'remove', path: 'members', value: [{ value: `m-${i}` }] },
    );
    const { result, elapsed } = timed({ ...sampleGroup(), members: members(100_000) }, groupModel, operations);
    expect(result.ok ? undefined : result.error.scimType).toBe('invalidValue');
    expect(elapsed).toBeLessThan(5000);
  }, 30_000);
});
