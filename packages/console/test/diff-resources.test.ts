import type { ChangeEvent, ScimResource } from '@scimkit/core';
import { describe, expect, it } from 'vitest';
import { recordChange } from '../src/log/diff-resources.js';
import { compileRedaction, Redactor } from '../src/log/redactor.js';

function change(before: Record<string, unknown>, after: Record<string, unknown>): ChangeEvent {
  return { operation: 'patch', resourceType: 'Group', id: 'g1', before: { id: 'g1', ...before } as ScimResource, after: { id: 'g1', ...after } as ScimResource } as ChangeEvent;
}

const members = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => ({ value: `u${from + i}` }));

describe('the diff of a recorded change', () => {
  it('lists the paths of the old version first, then those only the new one has, past the point where the leaves are indexed', () => {
    const recorded = recordChange(change({ members: members(0, 20) }, { members: members(5, 25) }), new Redactor(compileRedaction()));
    expect(recorded.diff).toEqual([
      ...members(0, 5).map(({ value }) => ({ path: `members[value eq "${value}"].value`, before: `"${value}"` })),
      ...members(20, 25).map(({ value }) => ({ path: `members[value eq "${value}"].value`, after: `"${value}"` })),
    ]);
  });

  it('compares the last of the elements that share a value, at the place of the first', () => {
    const before = { emails: [{ value: 'a@example.com', type: 'work' }, { value: 'a@example.com', type: 'home' }], displayName: 'A' };
    const after = { emails: [{ value: 'a@example.com', type: 'other' }], displayName: 'B' };
    const recorded = recordChange(change(before, after), new Redactor(compileRedaction()));
    expect(recorded.diff).toEqual([
      { path: 'emails[value eq "a@example.com"].type', before: '"home"', after: '"other"' },
      { path: 'displayName', before: '"A"', after: '"B"' },
    ]);
  });

  it('treats an attribute the same on every change a log records (secret, masked, kept)', () => {
    const redactor = (): Redactor => new Redactor(policy);
    const policy = compileRedaction({ personalData: 'mask', secretFields: ['pin'] });
    for (let i = 0; i < 3; i++) {
      const recorded = recordChange(change({ pin: `old-${i}`, displayName: `x${i}`, title: 'a' }, { pin: `new-${i}`, displayName: `y${i}`, title: 'b' }), redactor());
      expect(recorded.diff).toEqual([
        { path: 'pin', before: '[redacted]', after: '[redacted]' },
        { path: 'displayName', before: '***', after: '***' },
        { path: 'title', before: '"a"', after: '"b"' },
      ]);
    }
  });
});
