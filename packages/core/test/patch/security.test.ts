import { afterEach, describe, expect, it } from 'vitest';
import { applyPatch } from '../../src/patch/index.js';
import { ENTERPRISE, PATCH_OP, sampleGroup, sampleUser, groupModel, userModel } from './patch-fixtures.js';

/** Bodies are built from JSON text, as a server receives them: `__proto__` is then an own key. */
function request(operations: string): unknown {
  return JSON.parse(`{"schemas":["${PATCH_OP}"],"Operations":[${operations}]}`);
}

function polluted(): boolean {
  const probe: Record<string, unknown> = {};
  return probe.polluted !== undefined || (Object.prototype as Record<string, unknown>).polluted !== undefined || Array.prototype.hasOwnProperty('polluted');
}

afterEach(() => {
  delete (Object.prototype as Record<string, unknown>).polluted;
});

const NAMES = ['__proto__', 'constructor', 'prototype'];

describe('prototype pollution', () => {
  const paths = [
    ...NAMES.map((n) => n),
    ...NAMES.map((n) => `${n}.polluted`),
    'constructor.prototype',
    ...NAMES.map((n) => `name.${n}`),
    ...NAMES.map((n) => `emails[type eq "work"].${n}`),
    ...NAMES.map((n) => `emails[${n} eq "x"]`),
    ...NAMES.map((n) => `emails[${n} pr].value`),
    ...NAMES.map((n) => `emails[not (${n}.polluted eq "x")]`),
    ...NAMES.map((n) => `${ENTERPRISE}:${n}`),
    ...NAMES.map((n) => `${ENTERPRISE}:manager.${n}`),
    ...NAMES.map((n) => `urn:ietf:params:scim:schemas:core:2.0:User:${n}`),
  ];

  it.each(paths)('path %s is a 400 and leaves Object.prototype untouched', (path) => {
    for (const op of ['add', 'replace', 'remove']) {
      const operation = JSON.stringify({ op, path, value: { polluted: 'yes' } });
      const result = applyPatch(userModel, sampleUser(), request(operation));
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error.status).toBe(400);
      expect(polluted()).toBe(false);
    }
  });

  const values = [
    '{"__proto__":{"polluted":"yes"}}',
    '{"constructor":{"prototype":{"polluted":"yes"}}}',
    '{"prototype":{"polluted":"yes"}}',
    '{"name":{"__proto__":{"polluted":"yes"}}}',
    '{"name":{"givenName":"a","constructor":{"prototype":{"polluted":"yes"}}}}',
    '{"emails":[{"value":"a@b.c","__proto__":{"polluted":"yes"}}]}',
    `{"${ENTERPRISE}":{"__proto__":{"polluted":"yes"}}}`,
    `{"${ENTERPRISE}":{"manager":{"__proto__":{"polluted":"yes"}}}}`,
    '{"name.__proto__":{"polluted":"yes"}}',
    '{"__proto__.polluted":"yes"}',
    '{"nickName":{"deep":[{"x":{"__proto__":{"polluted":"yes"}}}]}}',
  ];

  it.each(values)('path-less value %s is a 400 and leaves Object.prototype untouched', (value) => {
    for (const op of ['add', 'replace']) {
      const result = applyPatch(userModel, sampleUser(), request(`{"op":"${op}","value":${value}}`));
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error).toMatchObject({ status: 400 });
      expect(polluted()).toBe(false);
    }
  });

  it.each([
    ['name', '{"__proto__":{"polluted":"yes"}}'],
    ['emails', '[{"__proto__":{"polluted":"yes"}}]'],
    ['emails[type eq "work"]', '{"__proto__":{"polluted":"yes"}}'],
    [ENTERPRISE, '{"__proto__":{"polluted":"yes"}}'],
    [`${ENTERPRISE}:manager`, '{"constructor":{"prototype":{"polluted":"yes"}}}'],
  ])('value keys under path %s are a 400 and leave Object.prototype untouched', (path, value) => {
    const result = applyPatch(userModel, sampleUser(), request(`{"op":"add","path":${JSON.stringify(path)},"value":${value}}`));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatchObject({ status: 400, scimType: 'invalidValue' });
    expect(polluted()).toBe(false);
  });

  it('Entra-style member removal with a polluting value is a 400', () => {
    const result = applyPatch(groupModel, sampleGroup(), request('{"op":"Remove","path":"members","value":[{"__proto__":{"polluted":"yes"},"value":"x"}]}'));
    expect(result.ok).toBe(false);
    expect(polluted()).toBe(false);
  });

  it('a stored resource carrying an own __proto__ key is copied without touching any prototype', () => {
    const stored = { ...sampleUser(), ...(JSON.parse('{"__proto__":{"polluted":"yes"}}') as object) } as ReturnType<typeof sampleUser>;
    const result = applyPatch(userModel, stored, request('{"op":"replace","path":"nickName","value":"x"}'));
    expect(result.ok).toBe(true);
    expect(polluted()).toBe(false);
    expect(result.ok && Object.getPrototypeOf(result.value.resource)).toBe(Object.prototype);
  });
});
