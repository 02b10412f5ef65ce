import { describe, expect, it } from 'vitest';
import type { ScimResource } from '../schema/scim-resource.js';
import type { ScimStore, StoreContext, StoreQueryResult } from '../store/scim-store.js';
import { inTenant, user } from './conformance-resources.js';
import type { ConformanceModels } from './conformance-schema.js';
import { runCursorQuery, runQuery, type KitCursorQuery } from './run-query.js';

/** RFC 9865 §2: a cursor holds only URI unreserved characters, and is never empty. */
const UNRESERVED = /^[A-Za-z0-9._~-]+$/;

type Walk = Omit<KitCursorQuery, 'cursor'>;

/** Keyset paging with `StoreQuery.cursor` (`capabilities.cursor`, RFC 9865). */
export function describeCursors(store: () => ScimStore, models: () => ConformanceModels): void {
  describe('keyset cursors (capabilities.cursor)', () => {
    const page = (query: Walk, cursor: string, ctx?: StoreContext) => runCursorQuery(store(), models().user, { ...query, cursor }, ctx);
    const names = (resources: readonly ScimResource[]) => resources.map((r) => r['userName'] as string);
    const checkCursors = (result: StoreQueryResult) => {
      for (const cursor of [result.nextCursor, result.previousCursor]) if (cursor !== undefined) expect(cursor).toMatch(UNRESERVED);
    };

    /** Follows `nextCursor` from the first page; checks the cursors of every page on the way. */
    const forward = async (query: Walk, ctx?: StoreContext, between?: (pageNumber: number, seen: readonly ScimResource[]) => Promise<void>) => {
      const seen: ScimResource[] = [];
      let result = await page(query, '', ctx);
      expect(result.previousCursor).toBeUndefined();
      for (let n = 1; ; n++) {
        checkCursors(result);
        expect(result.resources.length).toBeLessThanOrEqual(query.count);
        seen.push(...result.resources);
        if (result.nextCursor === undefined) break;
        expect(result.resources).toHaveLength(query.count);
        expect(n).toBeLessThan(100);
        await between?.(n, seen);
        result = await page(query, result.nextCursor, ctx);
      }
      return { seen, last: result };
    };

    /** Follows `previousCursor` from `from` back to the first page; the resources in forward order. */
    const backward = async (query: Walk, from: StoreQueryResult) => {
      const seen: ScimResource[] = [...from.resources];
      let result = from;
      for (let n = 0; result.previousCursor !== undefined; n++) {
        expect(n).toBeLessThan(100);
        result = await page(query, result.previousCursor);
        checkCursors(result);
        seen.unshift(...result.resources);
      }
      return seen;
    };

    const seed = async (userNames: readonly string[], extra: (i: number) => Record<string, unknown> = () => ({})) => {
      for (const [i, name] of userNames.entries()) expect((await store().create('User', user(name, extra(i)), inTenant(undefined))).ok).toBe(true);
    };
    const TEN = ['kim', 'Abe', 'joy', 'Dee', 'eve', 'Hal', 'fay', 'cat', 'Ian', 'gus'];

    it('walks forward and backward through every page of a sorted list', async () => {
      await seed(TEN);
      const query: Walk = { sortBy: 'userName', count: 3 };
      const expected = names((await runQuery(store(), models().user, { sortBy: 'userName' })).resources);
      const { seen, last } = await forward(query);
      expect(names(seen)).toEqual(expected);
      expect(last.totalResults).toBe(10);
      expect(last.resources).toHaveLength(1);
      expect(names(await backward(query, last))).toEqual(expected);
    });

    it('walks a filtered list sorted descending, with ties and missing values, in the comparator order', async () => {
      const titles = ['x', undefined, 'y', 'x', undefined, 'y', 'x', 'z', undefined, 'x'];
      await seed(TEN, (i) => ({ ...(titles[i] === undefined ? {} : { title: titles[i] }), active: i !== 7 }));
      const query: Walk = { filter: 'active eq true', sortBy: 'title', sortOrder: 'descending', count: 2 };
      const expected = await runQuery(store(), models().user, { filter: 'active eq true', sortBy: 'title', sortOrder: 'descending' });
      const { seen, last } = await forward(query);
      // Ties may come in any order the store keeps stable, so compare titles in order and names as sets.
      expect(seen.map((r) => r['title'])).toEqual(expected.resources.map((r) => r['title']));
      expect(names(seen).sort()).toEqual(names(expected.resources).sort());
      expect(last.totalResults).toBe(9);
      expect(names(await backward(query, last))).toEqual(names(seen));
    });

    it('walks an unsorted list: every resource once, the same order both ways', async () => {
      await seed(TEN);
      const query: Walk = { count: 4 };
      const { seen, last } = await forward(query);
      expect(names(seen).sort()).toEqual([...TEN].sort());
      expect(names(await backward(query, last))).toEqual(names(seen));
    });

    for (const [label, sortBy] of [['sorted', 'userName'], ['unsorted', undefined]] as const) {
      it(`loses and duplicates nothing that exists throughout a ${label} walk while others are created and deleted`, async () => {
        const initial = Array.from({ length: 12 }, (_, i) => `u${String(i).padStart(2, '0')}`);
        await seed(initial);
        const removed: ScimResource[] = [];
        const { seen } = await forward({ count: 4, ...(sortBy === undefined ? {} : { sortBy }) }, undefined, async (n, sofar) => {
          if (n !== 1) return;
          // The last resource of the page just read (the cursor's own), one not read yet, and new ones on both sides.
          const all = (await runQuery(store(), models().user, {})).resources;
          const unread = all.find((r) => !sofar.some((s) => s.id === r.id));
          for (const gone of [sofar[sofar.length - 1], unread]) {
            if (gone === undefined) throw new Error('the walk needs a read and an unread resource');
            removed.push(gone);
            expect(await store().delete('User', gone.id)).toEqual({ ok: true });
          }
          await seed(['u015', 'u095', 'u99', 'a00']);
        });
        const seenNames = names(seen);
        expect(new Set(seenNames).size).toBe(seenNames.length);
        const throughout = initial.filter((name) => !removed.some((r) => r['userName'] === name));
        expect(throughout).toHaveLength(10);
        for (const name of throughout) expect(seenNames.filter((n) => n === name)).toHaveLength(1);
        expect(seenNames).not.toContain(removed[1]?.['userName']);
        if (sortBy !== undefined) expect(seenNames).toEqual([...seenNames].sort());
      });
    }

    it('count 0 gives the total only; an empty type gives one empty last page', async () => {
      await seed(TEN);
      const counted = await page({ sortBy: 'userName', count: 0 }, '');
      expect(counted.totalResults).toBe(10);
      expect(counted.resources).toEqual([]);
      const none = await runCursorQuery(store(), models().group, { cursor: '', count: 5 });
      expect(none).toEqual({ totalResults: 0, resources: [] });
    });

    it('never walks into another tenant', async () => {
      for (const name of ['a1', 'a2', 'a3']) await store().create('User', user(name), inTenant('tenant-a'));
      for (const name of ['b1', 'b2', 'b3', 'b4']) await store().create('User', user(name), inTenant('tenant-b'));
      const { seen, last } = await forward({ sortBy: 'userName', count: 2 }, { tenant: 'tenant-b' });
      expect(names(seen)).toEqual(['b1', 'b2', 'b3', 'b4']);
      expect(last.totalResults).toBe(4);
    });
  });
}
