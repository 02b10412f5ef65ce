import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, createScimServer, groupResourceType, URN, userResourceType } from '../../../src/index.js';

const ids = ['a', 'b', 'c', 'd'];
const reference = fc.constantFrom(...ids.map((id) => `bulkId:${id}`), 'bulkId:', 'bulkId:zz', 'https://x/Users/bulkId:a', 'plain');
const data = fc.oneof(
  fc.record({ schemas: fc.constant([URN.user]), userName: fc.oneof(fc.string({ maxLength: 6 }), reference) }),
  fc.record({ schemas: fc.constant([URN.group]), displayName: fc.string({ maxLength: 6 }), members: fc.array(fc.record({ value: reference }), { maxLength: 3 }) }),
  fc.array(fc.record({ op: fc.constantFrom('add', 'replace', 'remove'), path: fc.constantFrom('members', 'displayName', 'nickName'), value: fc.oneof(reference, fc.array(fc.record({ value: reference }), { maxLength: 2 })) }), { maxLength: 3 }),
  fc.json({ maxDepth: 3 }),
);
const operation = fc.record(
  {
    method: fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE', 'GET', 'post', ''),
    path: fc.constantFrom('/Users', '/Groups', '/Users/bulkId:a', '/Groups/bulkId:b', '/Groups/bulkId:zz', '/Bulk', '/Me', '/Schemas', 'Users', ''),
    bulkId: fc.constantFrom(...ids, '', 'x'),
    version: fc.constantFrom('W/"1"', '*', ''),
    data,
  },
  { requiredKeys: ['method'] },
);

describe('Bulk never breaks on arbitrary operations', () => {
  it('answers 200 with one result per performed operation, each a 2xx or 4xx, and creates exactly the resources its 201s report', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(operation, fc.json({ maxDepth: 2 })), { maxLength: 8 }), fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }), async (operations, failOnErrors) => {
        const server = createScimServer({
          resourceTypes: [userResourceType, groupResourceType],
          store: createMemoryStore(),
          bulk: {},
          logger: { log: (record) => { if (record.level === 'error') throw new Error(`unexpected failure reported: ${record.message}: ${String(record.error)}`); } },
        });
        const response = await server.handle({
          method: 'POST',
          path: '/Bulk',
          headers: { 'content-type': 'application/scim+json' },
          body: JSON.stringify({ schemas: [URN.bulkRequest], Operations: operations, ...(failOnErrors === undefined ? {} : { failOnErrors }) }),
        });
        expect(response.status).toBe(200);
        const results = (JSON.parse(response.body ?? '{}') as { Operations: { status: string; location?: string; method: string }[] }).Operations;
        expect(results.length).toBeLessThanOrEqual(operations.length);
        for (const result of results) {
          // 501 is what the single request answers for /Me here (no resolver); nothing else is a server error.
          expect(Number(result.status)).toBeGreaterThanOrEqual(200);
          if (result.status !== '501') expect(Number(result.status)).toBeLessThan(500);
        }
        const errors = results.filter((result) => Number(result.status) >= 400).length;
        if (failOnErrors !== undefined) expect(errors).toBeLessThanOrEqual(failOnErrors);
        const created = results.filter((result) => result.status === '201').length;
        const deleted = results.filter((result) => result.status === '204').length;
        let stored = 0;
        for (const path of ['/Users', '/Groups']) stored += (JSON.parse((await server.handle({ method: 'GET', path })).body ?? '{}') as { totalResults: number }).totalResults;
        expect(stored).toBe(created - deleted);
      }),
      { numRuns: 300 },
    );
  });
});
