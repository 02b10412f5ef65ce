import { describe, expect, it } from 'vitest';
import * as engine from '../src/engine/index.js';
import * as main from '../src/index.js';
import * as testing from '../src/testing/index.js';

/** Schema data: a schema definition, a resource type definition, or a list of attribute definitions. */
function isSchemaData(value: unknown): boolean {
  if (Array.isArray(value)) return value.every((item) => typeof item === 'object' && item !== null && ('name' in item || 'endpoint' in item));
  return typeof value === 'object' && value !== null && (('id' in value && 'attributes' in value) || 'endpoint' in value);
}

/**
 * The naming rule of exported constants (docs/versioning.md, "Public surface"): schema data an
 * application spreads and extends (schemas, resource types, attribute lists) is camelCase like any
 * configuration object; every other constant (protocol strings, URN and status tables, enumerations,
 * limits and defaults) is UPPER_SNAKE_CASE. Functions and classes are named as functions and classes.
 */
describe('the public surface', () => {
  it.each([
    ['@scimkit/core', main],
    ['@scimkit/core/engine', engine],
    ['@scimkit/core/testing', testing],
  ] as const)('%s names its constants by one rule', (_entry, exports) => {
    for (const [name, value] of Object.entries(exports)) {
      if (typeof value === 'function') {
        expect(name, name).toMatch(/^([a-z][A-Za-z0-9]*|[A-Z][A-Za-z0-9]*)$/);
        continue;
      }
      if (/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(name)) continue;
      expect(isSchemaData(value), `${name} is camelCase but not schema data: name it UPPER_SNAKE_CASE`).toBe(true);
      expect(name).toMatch(/^[a-z][A-Za-z0-9]*$/);
    }
  });

  it('keeps the engine out of the main entry, and the main entry to one copy of each name', () => {
    const moved = ['parseFilter', 'printFilter', 'compileFilter', 'compileSort', 'compileValueFilter', 'parsePatchPath', 'parseAttrPath', 'applyPatch', 'validateResource', 'projectResource'];
    for (const name of moved) {
      expect(Object.keys(main), name).not.toContain(name);
      expect(Object.keys(engine), name).toContain(name);
    }
    expect(Object.keys(engine).filter((name) => name in main)).toEqual([]);
  });
});
