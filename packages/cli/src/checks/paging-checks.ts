import { SCIM_URN } from '@scimkit/client';
import type { Check } from '../check.js';
import { all, needsCursor, needsFilter, needsSort, needsUsers } from '../applies.js';
import { bodyOf, expectScimError, expectStatus, expectThat, listIds, pick, sameSet } from '../expect.js';


export const pagingChecks: readonly Check[] = [
  {
    id: 'paging.index',
    tag: 'paging',
    title: 'startIndex and count page through the results, each once',
    reference: 'RFC 7644 §3.4.2.4',
    writes: true,
    applies: all(needsUsers, needsFilter),
    async run(ctx) {
      const f = await ctx.fixtures();
      const filter = `userName sw "${f.scope}"`;
      const seen: string[] = [];
      for (const startIndex of [1, 3]) {
        const exchange = await ctx.send('GET', ctx.users, { query: { filter, startIndex, count: 2, sortBy: ctx.config.sort?.supported ? 'userName' : undefined } });
        expectStatus(exchange, 200, 'RFC 7644 §3.4.2.4');
        const body = bodyOf(exchange);
        const ids = listIds(exchange);
        expectThat(body['totalResults'] === 3, `totalResults is ${JSON.stringify(body['totalResults'])}`, 'totalResults 3: every match, not the page (RFC 7644 §3.4.2)', exchange);
        expectThat(body['startIndex'] === startIndex, `startIndex is ${JSON.stringify(body['startIndex'])}`, `startIndex ${startIndex} (RFC 7644 §3.4.2.4)`, exchange);
        expectThat(ids.length === (startIndex === 1 ? 2 : 1) && body['itemsPerPage'] === ids.length, `${ids.length} resources, itemsPerPage ${JSON.stringify(body['itemsPerPage'])}`, `${startIndex === 1 ? 2 : 1} resources and itemsPerPage equal to that`, exchange);
        seen.push(...ids);
      }
      expectThat(sameSet(seen, [f.a.id, f.b.id, f.c.id]), 'The pages do not hold each fixture user once', 'the three users, each on one page');
    },
  },
  {
    id: 'paging.count-zero',
    tag: 'paging',
    title: 'count=0 returns totalResults and no resources',
    reference: 'RFC 7644 §3.4.2.4',
    writes: true,
    applies: all(needsUsers, needsFilter),
    async run(ctx) {
      const f = await ctx.fixtures();
      const exchange = await ctx.send('GET', ctx.users, { query: { filter: `userName sw "${f.scope}"`, count: 0 } });
      expectStatus(exchange, 200, 'RFC 7644 §3.4.2.4');
      const body = bodyOf(exchange);
      const resources = body['Resources'];
      expectThat(body['totalResults'] === 3 && (resources === undefined || (Array.isArray(resources) && resources.length === 0)), `totalResults ${JSON.stringify(body['totalResults'])}, ${Array.isArray(resources) ? resources.length : 0} resources`, 'totalResults 3 and no resources ("a value of 0 indicates no resource results are to be returned except for totalResults")', exchange);
    },
  },
  {
    id: 'paging.sort',
    tag: 'paging',
    title: 'sortBy and sortOrder order the results',
    reference: 'RFC 7644 §3.4.2.3',
    writes: true,
    applies: all(needsUsers, needsFilter, needsSort),
    async run(ctx) {
      const f = await ctx.fixtures();
      const exchange = await ctx.send('GET', ctx.users, { query: { filter: `userName sw "${f.scope}"`, sortBy: 'userName', sortOrder: 'descending' } });
      expectStatus(exchange, 200, 'RFC 7644 §3.4.2.3');
      const ids = listIds(exchange);
      expectThat(ids.join() === [f.c.id, f.b.id, f.a.id].join(), 'Another order', 'c, b, a: userName descending', exchange);
    },
  },
  {
    id: 'paging.cursor',
    tag: 'paging',
    title: 'cursor paging: cursor= then nextCursor until none, each result once',
    reference: 'RFC 9865 §2',
    writes: true,
    applies: all(needsUsers, needsFilter, needsCursor),
    async run(ctx) {
      const f = await ctx.fixtures();
      const filter = `userName sw "${f.scope}"`;
      const seen: string[] = [];
      let cursor = '';
      for (let page = 0; page < 5; page++) {
        const exchange = await ctx.send('GET', ctx.users, { query: { filter, count: 2, cursor } });
        expectStatus(exchange, 200, 'RFC 9865 §2');
        const body = bodyOf(exchange);
        seen.push(...listIds(exchange));
        expectThat(body['totalResults'] === 3, `totalResults is ${JSON.stringify(body['totalResults'])}`, 'totalResults 3', exchange);
        if (page === 0) expectThat(typeof body['nextCursor'] === 'string' && body['nextCursor'] !== '', 'No nextCursor on the first of two pages', 'a nextCursor (RFC 9865 §2.2)', exchange);
        if (typeof body['nextCursor'] !== 'string' || body['nextCursor'] === '') break;
        cursor = body['nextCursor'];
      }
      expectThat(sameSet(seen, [f.a.id, f.b.id, f.c.id]), `The pages held ${JSON.stringify(seen)}`, 'the three users, each once, and no nextCursor on the last page');
    },
  },
  {
    id: 'paging.cursor-invalid',
    tag: 'paging',
    title: 'An unknown cursor is 400 invalidCursor',
    reference: 'RFC 9865 §2.1',
    writes: false,
    applies: all(needsUsers, needsCursor),
    async run(ctx) {
      const exchange = await ctx.send('GET', ctx.users, { query: { cursor: 'not-a-cursor-this-server-issued', count: 2 } });
      expectScimError(exchange, 400, 'invalidCursor', 'RFC 9865 §2.1');
    },
  },
  {
    id: 'paging.search',
    tag: 'paging',
    title: 'POST /Users/.search with filter, startIndex and count',
    reference: 'RFC 7644 §3.4.3',
    writes: true,
    applies: all(needsUsers, needsFilter),
    async run(ctx) {
      const f = await ctx.fixtures();
      const body = { schemas: [SCIM_URN.searchRequest], filter: `userName sw "${f.scope}"`, startIndex: 1, count: 10, attributes: ['userName'] };
      const exchange = await ctx.send('POST', `${ctx.users}/.search`, { body });
      expectStatus(exchange, 200, 'RFC 7644 §3.4.3: a search is answered 200 with a ListResponse');
      expectThat(sameSet(listIds(exchange), [f.a.id, f.b.id, f.c.id]), 'Other results', 'the three fixture users', exchange);
      const first = (bodyOf(exchange)['Resources'] as unknown[])[0];
      expectThat(pick(first, 'displayName') === undefined, 'displayName came back', 'only userName (and id, schemas) per attributes (RFC 7644 §3.4.3)', exchange);
    },
  },
];
