import { describe, expect, it } from 'vitest';
import * as core from '../src/index.js';

/** Every object the public entry exports is shared by all servers in the process, so none can be edited. */
function mutableParts(value: unknown, path: string, found: string[] = []): string[] {
  if (typeof value !== 'object' || value === null) return found;
  if (!Object.isFrozen(value)) found.push(path);
  for (const key of Reflect.ownKeys(value)) mutableParts((value as Record<PropertyKey, unknown>)[key], `${path}.${String(key)}`, found);
  return found;
}

describe('shared constants', () => {
  it('every exported object or array (schemas, resource types, defaults, URNs, scimTypes) is deeply frozen', () => {
    const exported = Object.entries(core).filter(([, value]) => typeof value === 'object' && value !== null);
    expect(exported.map(([name]) => name)).toEqual(expect.arrayContaining(['userSchema', 'userResourceType', 'DEFAULT_LIMITS', 'URN', 'SCIM_TYPE_STATUS']));
    expect(exported.flatMap(([name, value]) => mutableParts(value, name))).toEqual([]);
  });

  it('spreading a copy is the way to change one', () => {
    expect(() => (core.userResourceType.schemaExtensions as unknown[]).push({})).toThrow(TypeError);
    const copy = { ...core.groupResourceType, operations: [] };
    expect(copy.endpoint).toBe('/Groups');
  });
});
