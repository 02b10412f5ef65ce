import { beforeEach, describe, expect, it } from 'vitest';
import { URN } from '../schema/urns.js';
import type { ScimStore } from '../store/scim-store.js';
import { group, NO_UNIQUE, population, user, USER_CONTEXT } from './conformance-resources.js';
import { EXTRA_URN, type ConformanceModels } from './conformance-schema.js';
import { runQuery } from './run-query.js';

/** [filter, userNames it matches in population()] — RFC 7644 §3.4.2.2. */
const FILTER_CASES: readonly (readonly [string, readonly string[]])[] = [
  // eq, caseExact false (userName) and true (id, externalId, code)
  ['userName eq "ALICE"', ['alice']],
  ['userName eq "bob"', ['Bob']],
  ['externalId eq "EXT-a"', ['alice']],
  ['externalId eq "ext-a"', []],
  [`${EXTRA_URN}:code eq "abc"`, ['Bob']],
  // names and operators in any case; URN-qualified names
  ['USERNAME Eq "carol"', ['carol']],
  [`${URN.user}:userName eq "dave"`, ['dave']],
  [`${URN.user}:name.familyName eq "SMITH"`, ['alice', 'Bob']],
  // ne, co, sw, ew, gt, ge, lt, le on strings (ignoring case)
  // ne is the negation of eq (docs/concepts/filters.md): a resource without the attribute matches (unlike SQL's <>)
  ['name.familyName ne "smith"', ['carol', 'dave']],
  ['title ne null', ['alice', 'carol']],
  ['userName co "O"', ['Bob', 'carol']],
  ['userName sw "A"', ['alice']],
  ['userName ew "E"', ['alice', 'dave']],
  ['userName gt "BOB"', ['carol', 'dave']],
  ['userName ge "bob"', ['Bob', 'carol', 'dave']],
  ['userName lt "Bob"', ['alice']],
  ['userName le "BOB"', ['alice', 'Bob']],
  // numbers compare numerically, not as text
  [`${EXTRA_URN}:level gt 9`, ['alice', 'carol']],
  [`${EXTRA_URN}:level le 10`, ['alice', 'Bob']],
  [`${EXTRA_URN}:score ge 2.25`, ['alice', 'carol']],
  [`${EXTRA_URN}:score lt 0`, ['Bob']],
  // booleans
  ['active eq true', ['alice', 'carol', 'dave']],
  ['active eq false', ['Bob']],
  [`${EXTRA_URN}:flag eq false`, ['Bob']],
  // dateTime compares as instants (12:00+02:00 is 10:00Z)
  [`${EXTRA_URN}:since eq "2026-05-01T10:00:00Z"`, ['alice', 'Bob']],
  [`${EXTRA_URN}:since lt "2026-05-01T10:00:00.000Z"`, ['carol']],
  ['meta.created gt "2026-01-02T10:00:00Z"', ['carol', 'dave']],
  ['meta.created ge "2026-01-02T11:00:00+01:00"', ['Bob', 'carol', 'dave']],
  ['meta.lastModified lt "2026-02-01T00:00:00Z"', ['carol', 'dave']],
  // pr: has a non-empty value
  ['title pr', ['alice', 'carol']],
  ['nickName pr', []],
  ['emails pr', ['alice', 'Bob', 'carol']],
  [`${EXTRA_URN}:tags pr`, ['alice', 'carol']],
  [`${URN.enterpriseUser}:department pr`, ['carol']],
  // multi-valued: any value matches
  ['emails.value co "home"', ['alice', 'Bob']],
  ['emails.type eq "work"', ['alice', 'carol']],
  [`${EXTRA_URN}:tags eq "GREEN"`, ['alice']],
  // value paths: conditions hold on one and the same element
  ['emails[type eq "work" and value co "alice"]', ['alice']],
  ['emails[type eq "home" and value co "carol"]', []],
  ['emails[type eq "work" and primary eq true]', ['alice']],
  // logic, precedence (and binds tighter than or), grouping, not
  ['userName eq "alice" or userName eq "dave" and active eq false', ['alice']],
  ['(userName eq "alice" or userName eq "dave") and active eq true', ['alice', 'dave']],
  ['not (active eq true)', ['Bob']],
  ['not (title pr) and active eq true', ['dave']],
  ['title eq "Engineer" or title eq "Manager" or userName eq "bob"', ['alice', 'Bob', 'carol']],
  // extension attributes
  [`${URN.enterpriseUser}:department eq "sales"`, ['carol']],
  [`${URN.enterpriseUser}:employeeNumber sw "00"`, ['carol']],
];

/** Every filter rule, through the real filter language and the store's push-down. */
export function describeFilters(store: () => ScimStore, models: () => ConformanceModels): void {
  describe('filters', () => {
    let ids: Map<string, string>;
    beforeEach(async () => {
      ids = new Map();
      for (const resource of population()) {
        expect((await store().create('User', resource, USER_CONTEXT)).ok).toBe(true);
        ids.set(resource.id, resource.userName as string);
      }
      await store().create('Group', group('alice'), NO_UNIQUE);
    });

    for (const [filter, expected] of FILTER_CASES) {
      it(filter, async () => {
        const result = await runQuery(store(), models().user, { filter });
        const names = result.resources.map((r) => r['userName'] as string);
        expect(names.sort()).toEqual([...expected].sort());
        expect(result.totalResults).toBe(expected.length);
      });
    }

    it('finds by id, exactly', async () => {
      const [id, name] = [...ids.entries()][2] ?? ['', ''];
      const found = await runQuery(store(), models().user, { filter: `id eq "${id}"` });
      expect(found.resources.map((r) => r['userName'])).toEqual([name]);
      expect((await runQuery(store(), models().user, { filter: `id eq "${id.toUpperCase()}x"` })).totalResults).toBe(0);
    });

    it('compares caseExact:false text by its NFC form: userName eq finds NFC josé from NFD and back', async () => {
      const nfc = user('jos\u00e9', { name: { familyName: 'Mu\u00f1oz' } });
      expect((await store().create('User', nfc, USER_CONTEXT)).ok).toBe(true);
      for (const filter of ['userName eq "jose\u0301"', 'userName eq "JOSE\u0301"', 'userName eq "jos\u00e9"', 'name.familyName eq "MUN\u0303OZ"']) {
        const found = await runQuery(store(), models().user, { filter });
        expect(found.resources.map((r) => r.id), filter).toEqual([nfc.id]);
      }
      expect((await runQuery(store(), models().user, { filter: 'userName eq "jose"' })).totalResults).toBe(0);
    });

    it('returns stored resources whole, never the group of the same name', async () => {
      const found = await runQuery(store(), models().user, { filter: 'userName eq "alice"' });
      expect(found.resources).toEqual([population()[0]].map((r) => ({ ...r, id: found.resources[0]?.id })));
    });
  });
}
