import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/patch/index.js';
import { body, ENTERPRISE, sampleGroup, sampleUser, groupModel, userModel } from './patch-fixtures.js';

const text = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== '');

/** Operations that succeed on sampleUser() in any order. */
const validOperation = fc.oneof(
  text.map((value) => ({ op: 'replace', path: 'nickName', value })),
  text.map((value) => ({ op: 'add', path: 'name.givenName', value })),
  text.map((value) => ({ op: 'add', path: 'emails', value: [{ value: `${value}@x.org`, type: 'other' }] })),
  text.map((value) => ({ op: 'replace', value: { title: value, active: false } })),
  text.map((value) => ({ op: 'add', path: `${ENTERPRISE}:department`, value })),
  fc.constant({ op: 'remove', path: 'phoneNumbers[type eq "mobile"]' }),
  fc.constant({ op: 'remove', path: 'addresses' }),
  fc.constant({ op: 'remove', path: `${ENTERPRISE}:manager` }),
  fc.constant({ op: 'replace', path: 'emails[type eq "home"].primary', value: true }),
);

/** Operations that always fail, whatever ran before them. */
const failingOperation = fc.oneof(
  fc.constant({ op: 'remove' }),
  fc.constant({ op: 'replace', path: 'id', value: 'other' }),
  fc.constant({ op: 'remove', path: 'userName' }),
  fc.constant({ op: 'replace', path: 'ims[type eq "nope"].value', value: 'x' }),
  fc.constant({ op: 'move', path: 'nickName' }),
  fc.constant({ op: 'add', path: 'noSuchAttribute', value: 1 }),
  fc.constant({ op: 'add', path: 'name', value: 'not an object' }),
  fc.constant({ op: 'add', value: JSON.parse('{"__proto__":{"x":1}}') as unknown }),
);

describe('PATCH properties', () => {
  it('a request with any failing operation fails and leaves the input deep-equal to before', () => {
    fc.assert(
      fc.property(fc.array(validOperation, { maxLength: 6 }), failingOperation, fc.nat(), (ops, failing, at) => {
        const user = sampleUser();
        const before = structuredClone(user);
        const operations: unknown[] = [...ops];
        operations.splice(at % (ops.length + 1), 0, failing);
        const result = applyPatch(userModel, user, body(...operations));
        expect(result.ok).toBe(false);
        expect(user).toEqual(before);
      }),
      { numRuns: 300 },
    );
  });

  it('a request of valid operations succeeds and never mutates the input', () => {
    fc.assert(
      fc.property(fc.array(validOperation, { minLength: 1, maxLength: 8 }), (ops) => {
        const user = sampleUser();
        const before = structuredClone(user);
        expect(applyPatch(userModel, user, body(...ops)).ok).toBe(true);
        expect(user).toEqual(before);
      }),
      { numRuns: 200 },
    );
  });

  const readers: [string, (r: Record<string, unknown>) => unknown][] = [
    ['nickName', (r) => r.nickName],
    ['TITLE', (r) => r.title],
    ['name.givenName', (r) => (r.name as Record<string, unknown> | undefined)?.givenName],
    ['urn:ietf:params:scim:schemas:core:2.0:User:displayName', (r) => r.displayName],
    [`${ENTERPRISE}:department`, (r) => (r[ENTERPRISE] as Record<string, unknown> | undefined)?.department],
    [`${ENTERPRISE}:manager.value`, (r) => ((r[ENTERPRISE] as Record<string, unknown> | undefined)?.manager as Record<string, unknown> | undefined)?.value],
    ['emails[type eq "work"].value', (r) => (r.emails as Record<string, unknown>[]).find((e) => e.type === 'work')?.value],
    ['addresses[type eq "home"].locality', (r) => (r.addresses as Record<string, unknown>[]).find((e) => e.type === 'home')?.locality],
  ];

  it('replace followed by reading the path back yields the value', () => {
    fc.assert(
      fc.property(fc.constantFrom(...readers), text, fc.boolean(), ([path, read], value, pathLess) => {
        const op = pathLess && !path.includes('[') ? { op: 'replace', value: { [path]: value } } : { op: 'replace', path, value };
        const result = applyPatch(userModel, sampleUser(), body(op));
        if (!result.ok) throw new Error(JSON.stringify(result.error));
        expect(read(result.value.resource)).toBe(value);
      }),
      { numRuns: 300 },
    );
  });

  it('add of a value already present in a multi-valued attribute changes nothing', () => {
    const cases = [
      { model: userModel, resource: sampleUser(), path: 'emails' },
      { model: userModel, resource: sampleUser(), path: 'phoneNumbers' },
      { model: userModel, resource: sampleUser(), path: 'addresses' },
      { model: groupModel, resource: sampleGroup(), path: 'members' },
    ];
    fc.assert(
      fc.property(fc.constantFrom(...cases), fc.nat(), fc.boolean(), ({ model, resource, path }, pick, wrap) => {
        const elements = resource[path] as Record<string, unknown>[];
        const element = { ...elements[pick % elements.length] };
        delete element.display; // readOnly for group members
        const result = applyPatch(model, resource, body({ op: 'add', path, value: wrap ? [element] : element }));
        expect(result.ok && result.value).toEqual({ resource, changed: false, touched: expect.any(Set), changes: [] });
      }),
      { numRuns: 200 },
    );
  });

  it('add is idempotent: adding the same values twice equals adding them once', () => {
    const email = fc.record({ value: text.map((s) => `${s}@example.org`), type: fc.constantFrom('work', 'home', 'other') });
    fc.assert(
      fc.property(fc.array(email, { minLength: 1, maxLength: 4 }), (emails) => {
        const once = applyPatch(userModel, sampleUser(), body({ op: 'add', path: 'emails', value: emails }));
        if (!once.ok) throw new Error(JSON.stringify(once.error));
        const twice = applyPatch(userModel, once.value.resource, body({ op: 'add', path: 'emails', value: emails }));
        expect(twice.ok && twice.value).toEqual({ resource: once.value.resource, changed: false, touched: expect.any(Set), changes: [] });
      }),
      { numRuns: 200 },
    );
  });
});
