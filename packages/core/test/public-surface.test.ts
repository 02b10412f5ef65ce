import { describe, expect, it } from 'vitest';
import * as adapter from '../src/adapter/index.js';
import * as engine from '../src/engine/index.js';
import * as main from '../src/index.js';
import * as printer from '../src/printer/index.js';
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
    ['@scimkit/core/adapter', adapter],
    ['@scimkit/core/printer', printer],
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

  // Each entry point's run-time names, in full: a name added or removed here is a decision about the
  // semver promise (docs/versioning.md), not a side effect of an import.
  it.each([
    [
      '@scimkit/core',
      main,
      [
        'ALL_OPERATIONS', 'COMPATIBILITY_PROFILES', 'DEFAULT_COMPATIBILITY', 'DEFAULT_EVENT_PARTITIONS', 'DEFAULT_LIMITS', 'DEFAULT_TENANT_CACHE_SIZE',
        'MAX_REQUEST_ID_LENGTH', 'MAX_TENANT_LENGTH', 'MemoryOutbox', 'SCIM_MEDIA_TYPE', 'SCIM_TYPES', 'SCIM_TYPE_STATUS', 'ScimException',
        'StoreUnavailableError', 'URN', 'bearerToken', 'builtinResourceTypes', 'commonAttributes', 'comparisonKey', 'createMemoryStore',
        'createSchemaRegistry', 'createScimServer', 'enterpriseUserSchema', 'eventPartition', 'groupResourceType', 'groupSchema', 'httpError',
        'isScimError', 'isScimType', 'isStoreUnavailable', 'nextCounterVersion', 'resourceTypeSchema', 'schemaSchema', 'scimError', 'serviceProviderConfigSchema',
        // Deprecated alias of comparisonKey, for one release.
        'uniqueKey',
        'userResourceType', 'userSchema',
      ],
    ],
    [
      '@scimkit/core/engine',
      engine,
      [
        'DEFAULT_FILTER_LIMITS', 'applyPatch', 'compileFilter', 'compileSort', 'compileValueFilter', 'filterShape', 'parseAttrPath', 'parseAttrPathList', 'parseFilter',
        'parsePatchPath', 'printAttrPath', 'printFilter', 'printPatchPath', 'projectResource', 'sortResources', 'sortShape', 'validateResource',
      ],
    ],
    [
      '@scimkit/core/adapter',
      adapter,
      [
        'DEFAULT_BODY_TIMEOUT_MS', 'DEFAULT_HTTP_SERVER_LIMITS', 'DEFAULT_MAX_PIPELINED_REQUESTS', 'answerClientError', 'createAdapterPipeline',
        'limitHttpServer', 'readRequestBody', 'readWebBody', 'scimErrorResponse',
      ],
    ],
    ['@scimkit/core/printer', printer, ['printAttrPath', 'printFilter', 'printPatchPath']],
    ['@scimkit/core/testing', testing, ['cursorWalkMismatch', 'describeStoreConformance', 'differentialMismatch']],
  ] as const)('%s exports exactly its listed names', (_entry, exports, names) => {
    expect(Object.keys(exports).sort()).toEqual([...names].sort());
  });

  it('keeps adapter plumbing out of the main entry: an application imports its adapter, an adapter @scimkit/core/adapter', () => {
    const plumbing = ['createBodyCollector', 'refusedBody', 'bodyLimit', 'createConnectionQueue', 'tooManyPipelinedResponse', 'limitHttpServer', 'readRequestBody', 'parseQuery', 'mountBaseUrl', 'FALLBACK_HOST', 'admitBeforeBody', 'isValidHost', 'scimErrorResponse', 'answerClientError'];
    for (const name of plumbing) expect(Object.keys(main), name).not.toContain(name);
  });
});
