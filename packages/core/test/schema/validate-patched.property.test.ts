import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/patch/index.js';
import { validateResource } from '../../src/schema/index.js';
import { body, ENTERPRISE, sampleUser, userModel } from '../patch/patch-fixtures.js';

const text = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== '');

/** PATCH operations, valid or not once applied: what the validation then has to say about the result. */
const operation = fc.oneof(
  text.map((value) => ({ op: 'replace', path: 'nickName', value })),
  text.map((value) => ({ op: 'add', path: 'emails', value: [{ value: `${value}@x.org`, type: 'other' }] })),
  text.map((value) => ({ op: 'replace', value: { title: value, active: false } })),
  text.map((value) => ({ op: 'add', path: `${ENTERPRISE}:department`, value })),
  text.map((value) => ({ op: 'replace', path: `${ENTERPRISE}:manager.displayName`, value })),
  text.map((value) => ({ op: 'add', path: 'groups', value: [{ value }] })),
  text.map((value) => ({ op: 'replace', path: 'password', value })),
  fc.constant({ op: 'remove', path: 'userName' }),
  fc.constant({ op: 'replace', path: 'userName', value: '' }),
  fc.constant({ op: 'replace', path: 'active', value: 'yes' }),
  fc.constant({ op: 'replace', path: 'emails', value: [{ value: 42 }] }),
  fc.constant({ op: 'remove', path: 'phoneNumbers[type eq "mobile"]' }),
  fc.constant({ op: 'remove', path: `${ENTERPRISE}:manager` }),
  fc.constant({ op: 'remove', path: ENTERPRISE }),
  fc.constant({ op: 'replace', path: 'emails[type eq "home"].primary', value: true }),
);

describe('validatePatched (the PATCH fast path of validateResource)', () => {
  it('answers as the whole validation does, with the same rules (property)', () => {
    fc.assert(
      fc.property(fc.array(operation, { minLength: 1, maxLength: 5 }), (operations) => {
        const existing = sampleUser();
        const patched = applyPatch(userModel, existing, body(...operations));
        if (!patched.ok || !patched.value.changed) return;
        const { resource, touched, changes } = patched.value;
        const fast = validateResource(userModel, resource, { operation: 'patch', existing, touched, changes });
        const whole = validateResource(userModel, resource, { operation: 'patch', existing });
        expect(fast).toEqual(whole);
      }),
      { numRuns: 400 },
    );
  });
});
