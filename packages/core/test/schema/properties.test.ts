import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinResourceTypes, createSchemaRegistry, projectResource, URN, validateResource } from '../../src/schema/index.js';

const registry = createSchemaRegistry({ resourceTypes: builtinResourceTypes });
const user = registry.resourceType('User')!;
const ENT = URN.enterpriseUser;

/** Names a client might send: real attribute names in random case, plus junk and prototype keys. */
const key = fc.oneof(
  fc.constantFrom('userName', 'name', 'emails', 'active', 'displayName', 'groups', 'id', 'meta', 'schemas', 'x509Certificates', ENT, '__proto__', 'constructor', 'prototype'),
  fc.string({ maxLength: 8 }),
).chain((k) => fc.boolean().map((upper) => (upper ? k.toUpperCase() : k)));
const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, 'True', '', 'x', 1, 1.5, '2020-01-01T00:00:00Z', 'SGVsbG8='),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value;
const body = fc.dictionary(key, json, { maxKeys: 6 }).map((b) => ({ userName: 'u', ...b }));

describe('validateResource properties', () => {
  it('never throws, and answers 400 with a detail when it rejects', () => {
    fc.assert(
      fc.property(fc.oneof(json, body), fc.constantFrom<'reject' | 'ignore'>('reject', 'ignore'), (input, unknownAttributes) => {
        const result = validateResource(user, input, { operation: 'create' }, { unknownAttributes });
        if (!result.ok) {
          expect(result.error.status).toBe(400);
          expect(['invalidSyntax', 'invalidValue']).toContain(result.error.scimType);
          expect(result.error.detail.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('is idempotent, and its output round-trips through projectResource', () => {
    fc.assert(
      fc.property(body, (input) => {
        const first = validateResource(user, input, { operation: 'create' }, { unknownAttributes: 'ignore' });
        if (!first.ok) return;
        const second = validateResource(user, first.value, { operation: 'create' });
        expect(second).toEqual(first);
        const { password: _, ...visible } = first.value;
        void _;
        expect(projectResource(user, { ...first.value, id: 'x' })).toEqual({ ...visible, id: 'x' });
        expect(Object.getPrototypeOf(first.value)).toBe(Object.prototype);
        expect(({} as Record<string, unknown>)['x']).toBeUndefined();
      }),
      { numRuns: 400 },
    );
  });
});
