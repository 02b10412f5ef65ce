import { SCIM_URN } from '@scimkit/client';
import type { Check } from '../check.js';
import { all, needsEtag, needsPatch, needsUsers } from '../applies.js';
import { expectStatus, expectThat, pick } from '../expect.js';

const replaceTitle = (value: string) => [{ op: 'replace', path: 'title', value }];

export const etagChecks: readonly Check[] = [
  {
    id: 'etags.header',
    tag: 'etags',
    title: 'GET returns an ETag header equal to meta.version',
    reference: 'RFC 7644 §3.14',
    writes: true,
    applies: all(needsUsers, needsEtag),
    async run(ctx) {
      const user = await ctx.createUser('etag-header');
      const { resource, exchange } = await ctx.read(ctx.users, user.id);
      const etag = exchange.response.headers.get('etag');
      expectThat(etag !== null && etag !== '', 'No ETag header', 'an ETag header (RFC 7644 §3.14: "SHALL indicate the version")', exchange);
      expectThat(etag === pick(resource, 'meta.version'), `ETag ${etag} differs from meta.version ${JSON.stringify(pick(resource, 'meta.version'))}`, 'ETag equal to meta.version (RFC 7643 §3.1, RFC 7644 §3.14)', exchange);
    },
  },
  {
    id: 'etags.if-none-match',
    tag: 'etags',
    title: 'GET with If-None-Match of the current version is 304',
    reference: 'RFC 7644 §3.14, RFC 7232 §3.2',
    writes: true,
    applies: all(needsUsers, needsEtag),
    async run(ctx) {
      const user = await ctx.createUser('etag-304');
      const version = String(pick(user, 'meta.version'));
      const exchange = await ctx.send('GET', ctx.pathOf(ctx.users, user.id), { headers: { 'if-none-match': version } });
      expectStatus(exchange, 304, 'RFC 7644 §3.14: unchanged since that version');
    },
  },
  {
    id: 'etags.version-changes',
    tag: 'etags',
    title: 'A write changes meta.version',
    reference: 'RFC 7643 §3.1, RFC 7644 §3.14',
    writes: true,
    applies: all(needsUsers, needsEtag, needsPatch),
    async run(ctx) {
      const user = await ctx.createUser('etag-change');
      const before = pick(user, 'meta.version');
      expectStatus(await ctx.patch(ctx.users, user.id, replaceTitle('Changed')), [200, 204], 'RFC 7644 §3.5.2');
      const { resource, exchange } = await ctx.read(ctx.users, user.id);
      expectThat(pick(resource, 'meta.version') !== before, `meta.version is still ${JSON.stringify(before)}`, 'a new meta.version after the change', exchange);
    },
  },
  {
    id: 'etags.if-match-current',
    tag: 'etags',
    title: 'PATCH with If-Match of the current version succeeds',
    reference: 'RFC 7644 §3.14',
    writes: true,
    applies: all(needsUsers, needsEtag, needsPatch),
    async run(ctx) {
      const user = await ctx.createUser('etag-match');
      const exchange = await ctx.patch(ctx.users, user.id, replaceTitle('Matched'), { 'if-match': String(pick(user, 'meta.version')) });
      expectStatus(exchange, [200, 204], 'RFC 7644 §3.14: the version matches');
    },
  },
  {
    id: 'etags.if-match-stale',
    tag: 'etags',
    title: 'PUT and PATCH with a stale If-Match are 412 and change nothing',
    reference: 'RFC 7644 §3.14, RFC 7232 §3.1',
    writes: true,
    applies: all(needsUsers, needsEtag, needsPatch),
    async run(ctx) {
      const user = await ctx.createUser('etag-stale', { title: 'First' });
      const stale = String(pick(user, 'meta.version'));
      expectStatus(await ctx.patch(ctx.users, user.id, replaceTitle('Second')), [200, 204], 'RFC 7644 §3.5.2');
      const patch = await ctx.patch(ctx.users, user.id, replaceTitle('Lost update'), { 'if-match': stale });
      expectStatus(patch, 412, 'RFC 7644 §3.14: the resource changed since that version');
      const put = await ctx.send('PUT', ctx.pathOf(ctx.users, user.id), { body: { schemas: [SCIM_URN.user], userName: user['userName'], title: 'Lost update' }, headers: { 'if-match': stale } });
      expectStatus(put, 412, 'RFC 7644 §3.14: the resource changed since that version');
      const { resource, exchange } = await ctx.read(ctx.users, user.id);
      expectThat(pick(resource, 'title') === 'Second', `title is ${JSON.stringify(pick(resource, 'title'))}`, 'title "Second": the refused writes changed nothing', exchange);
    },
  },
];
