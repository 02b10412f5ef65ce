import { describe, expect, it } from 'vitest';
import type { ScimStore } from '../store/scim-store.js';
import { revise, user, USER_CONTEXT } from './conformance-resources.js';
import type { ConformanceModels } from './conformance-schema.js';
import { runQuery } from './run-query.js';

/**
 * A store keeps the SCIM JSON value exactly: data it does not understand, unicode, numbers (the
 * largest safe integer, the smallest and largest doubles, 0.1 all read back as the same number).
 * The value, not its spelling: results are compared as JSON values (deep equality), so a store may
 * change key order (JSON objects are unordered, RFC 8259 §4) or a number's spelling (`1e2` as `100`).
 */
export function describeLosslessness(store: () => ScimStore, models: () => ConformanceModels): void {
  describe('losslessness', () => {
    const odd = () =>
      user('lossless-Ünïcødé-名前-🎉', {
        displayName: 'Zoë "quoted" \\ back\\slash\n\ttabbed \u2028 line sep',
        nested: { deeper: { deepest: [1, [2, [3, { four: null }]], { five: true }], empty: {}, emptyList: [] } },
        numbers: {
          int: 9007199254740991,
          negative: -42,
          fraction: 0.1,
          tiny: 5e-324,
          huge: 1.7976931348623157e308,
          hugeNegative: -1.7976931348623157e308,
          zero: 0,
          // Spelled with an exponent by JSON.stringify, without one by a store that keeps decimals (jsonb).
          exponent: 1e21,
          small: 1.5e-7,
          long: 123456789.12345679,
        },
        'urn:example:custom:schema:2.0:Thing': { 'key with spaces': 'v', 'ключ': 'значение' },
        emails: [{ value: 'a@example.com', type: 'work', primary: true, extra: { note: 'unknown to the schema' } }],
      });

    it('round-trips unknown nested data, unicode and numbers through create and get', async () => {
      const input = odd();
      await store().create('User', input, USER_CONTEXT);
      expect(await store().get('User', input.id)).toEqual(input);
    });

    it('round-trips through replace and query', async () => {
      const input = user('plain');
      await store().create('User', input, USER_CONTEXT);
      const next = revise(odd(), { id: input.id }, 'W/"2"');
      await store().replace('User', input.id, next, 'W/"1"', USER_CONTEXT);
      const found = await runQuery(store(), models().user, { filter: 'userName sw "lossless"' });
      expect(found.resources).toEqual([next]);
    });

    it('finds unicode values by filter', async () => {
      await store().create('User', odd(), USER_CONTEXT);
      const found = await runQuery(store(), models().user, { filter: 'userName eq "LOSSLESS-ÜNÏCØDÉ-名前-🎉"' });
      expect(found.totalResults).toBe(1);
    });
  });
}
