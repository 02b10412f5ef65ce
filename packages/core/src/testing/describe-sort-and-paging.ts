import { beforeEach, describe, expect, it } from 'vitest';
import type { ScimStore } from '../store/scim-store.js';
import { population, user, USER_CONTEXT } from './conformance-resources.js';
import { EXTRA_URN, type ConformanceModels } from './conformance-schema.js';
import { runQuery } from './run-query.js';

const names = (result: { resources: readonly Record<string, unknown>[] }) => result.resources.map((r) => r['userName']);

/** RFC 7644 §3.4.2.3 sorting and §3.4.2.4 paging. */
export function describeSortAndPaging(store: () => ScimStore, models: () => ConformanceModels): void {
  describe('sort', () => {
    beforeEach(async () => {
      for (const resource of population()) await store().create('User', resource, USER_CONTEXT);
    });
    const sorted = async (sortBy: string, sortOrder: 'ascending' | 'descending' = 'ascending', filter?: string) =>
      names(await runQuery(store(), models().user, { sortBy, sortOrder, ...(filter === undefined ? {} : { filter }) }));

    it('sorts strings by caseExact (userName ignores case)', async () => {
      expect(await sorted('userName')).toEqual(['alice', 'Bob', 'carol', 'dave']);
      expect(await sorted('userName', 'descending')).toEqual(['dave', 'carol', 'Bob', 'alice']);
    });

    it('sorts numbers numerically and puts missing values last ascending, first descending', async () => {
      expect(await sorted(`${EXTRA_URN}:level`)).toEqual(['Bob', 'alice', 'carol', 'dave']);
      expect(await sorted(`${EXTRA_URN}:level`, 'descending')).toEqual(['dave', 'carol', 'alice', 'Bob']);
      expect(await sorted('title')).toEqual(['alice', 'carol', 'Bob', 'dave']);
      expect(await sorted('title', 'descending')).toEqual(['Bob', 'dave', 'carol', 'alice']);
    });

    it('sorts dateTimes as instants', async () => {
      expect(await sorted(`${EXTRA_URN}:since`)).toEqual(['carol', 'alice', 'Bob', 'dave']);
      expect(await sorted('meta.created', 'descending')).toEqual(['dave', 'carol', 'Bob', 'alice']);
    });

    it('sorts a multi-valued attribute by its primary value, else its first', async () => {
      expect(await sorted('emails.value')).toEqual(['carol', 'alice', 'Bob', 'dave']);
    });

    it('is stable: equal keys keep the unsorted order', async () => {
      const unsorted = names(await runQuery(store(), models().user, {}));
      const byFamily = await sorted('name.familyName');
      const smiths = unsorted.filter((n) => n === 'alice' || n === 'Bob');
      expect(byFamily).toEqual(['carol', ...smiths, 'dave']);
    });

    it('sorts only the matches of a filter', async () => {
      expect(await sorted('userName', 'descending', 'active eq true')).toEqual(['dave', 'carol', 'alice']);
    });
  });

  describe('paging', () => {
    beforeEach(async () => {
      for (let i = 1; i <= 7; i++) await store().create('User', user(`p${i}`, { title: i % 2 ? 'odd' : 'even' }), USER_CONTEXT);
    });
    const page = (startIndex: number, count: number, extra: { filter?: string; sortBy?: string } = {}) =>
      runQuery(store(), models().user, { startIndex, count, sortBy: 'userName', ...extra });

    it('returns count resources from startIndex, and the total before paging', async () => {
      const result = await page(3, 2);
      expect(result.totalResults).toBe(7);
      expect(names(result)).toEqual(['p3', 'p4']);
    });

    it('returns a short last page and an empty page past the end', async () => {
      expect(names(await page(6, 5))).toEqual(['p6', 'p7']);
      const past = await page(20, 5);
      expect(past.resources).toEqual([]);
      expect(past.totalResults).toBe(7);
    });

    it('count 0 gives the total only', async () => {
      const result = await page(1, 0);
      expect(result.resources).toEqual([]);
      expect(result.totalResults).toBe(7);
    });

    it('pages filtered, sorted results', async () => {
      const result = await page(2, 2, { filter: 'title eq "odd"', sortBy: 'userName' });
      expect(result.totalResults).toBe(4);
      expect(names(result)).toEqual(['p3', 'p5']);
    });

    it('keeps the total of an unfiltered page exact through creates and deletes, refused ones too, per tenant and type', async () => {
      const total = async (ctx: { tenant?: string } = {}) => (await runQuery(store(), models().user, { startIndex: 1, count: 2 }, ctx)).totalResults;
      const users = (await runQuery(store(), models().user, {})).resources;
      const first = users[0] as (typeof users)[number];
      expect(await store().delete('User', first.id, 'W/"other"')).toEqual({ ok: false, reason: 'versionMismatch' });
      expect((await store().create('User', user('P2'), USER_CONTEXT)).ok).toBe(false);
      expect(await total()).toBe(7);
      expect(await store().delete('User', first.id)).toEqual({ ok: true });
      expect(await store().delete('User', first.id)).toEqual({ ok: false, reason: 'notFound' });
      expect(await total()).toBe(6);
      // Concurrent creates and deletes, as several connections or instances send them.
      const created = await Promise.all(Array.from({ length: 12 }, (_, i) => store().create('User', user(`c${i}`), USER_CONTEXT)));
      expect(created.every((r) => r.ok)).toBe(true);
      await Promise.all(users.slice(1, 4).map((u) => store().delete('User', u.id)));
      expect(await total()).toBe(15);
      expect(await total({ tenant: 'elsewhere' })).toBe(0);
      expect((await store().create('User', user('p1'), { ...USER_CONTEXT, tenant: 'elsewhere' })).ok).toBe(true);
      expect(await total({ tenant: 'elsewhere' })).toBe(1);
      expect((await runQuery(store(), models().user, { count: 0 })).totalResults).toBe(15);
      expect((await runQuery(store(), models().group, { startIndex: 1, count: 2 })).totalResults).toBe(0);
    });

    it('pages without a sort consistently: the pages partition the whole', async () => {
      const all = names(await runQuery(store(), models().user, {}));
      const pages = [...names(await runQuery(store(), models().user, { startIndex: 1, count: 3 })), ...names(await runQuery(store(), models().user, { startIndex: 4, count: 3 })), ...names(await runQuery(store(), models().user, { startIndex: 7, count: 3 }))];
      expect(pages).toEqual(all);
      expect([...all].sort()).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']);
    });
  });
}
