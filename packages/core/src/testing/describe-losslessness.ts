import { describe, expect, it } from 'vitest';
import type { ScimStore } from '../store/scim-store.js';
import { revise, user, USER_CONTEXT } from './conformance-resources.js';
import type { ConformanceModels } from './conformance-schema.js';
import { runQuery } from './run-query.js';

/** A store keeps the SCIM JSON exactly: data it does not understand, unicode, numbers. */
export function describeLosslessness(store: () => ScimStore, models: () => ConformanceModels): void {
  describe('losslessness', () => {
    const odd = () =>
      user('lossless-Ünïcødé-名前-🎉', {
        displayName: 'Zoë "quoted" \\ back\\slash\n\ttabbed \u2028 line sep',
        nested: { deeper: { deepest: [1, [2, [3, { four: null }]], { five: true }], empty: {}, emptyList: [] } },
        numbers: { int: 9007199254740991, negative: -42, fraction: 0.1, tiny: 5e-324, huge: 1.7976931348623157e308, zero: 0 },
        'urn:example:custom:schema:2.0:Thing': { 'key with spaces': 'v', 'ключ': 'значение' },
        emails: [{ value: 'a@example.com', type: 'work', primary: true, extra: { note: 'unknown to the schema' } }],
      });

    it('round-trips unknown nested data, unicode and numbers through create and get', async () => {
      const input = odd();
      await store().create('User', input, USER_CONTEXT);
      expect(await store().get('User', input.id)).toEqual(input);
      expect(JSON.stringify(await store().get('User', input.id))).toBe(JSON.stringify(input));
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
