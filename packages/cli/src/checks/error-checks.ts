import { SCIM_URN } from '@scimkit/client';
import type { Check } from '../check.js';
import { all, needsFilter, needsPatch, needsToken, needsUsers } from '../applies.js';
import { bodyOf, expectScimError, expectThat } from '../expect.js';


export const errorChecks: readonly Check[] = [
  {
    id: 'errors.invalid-filter',
    tag: 'errors',
    title: 'A filter that does not parse is 400 invalidFilter',
    reference: 'RFC 7644 §3.4.2.2, §3.12',
    writes: false,
    applies: all(needsUsers, needsFilter),
    async run(ctx) {
      const exchange = await ctx.send('GET', ctx.users, { query: { filter: 'userName eq' } });
      expectScimError(exchange, 400, 'invalidFilter', 'RFC 7644 §3.12: "The specified filter syntax was invalid"');
    },
  },
  {
    id: 'errors.unknown-endpoint',
    tag: 'errors',
    title: 'An endpoint the server does not have is a 404 SCIM error',
    reference: 'RFC 7644 §3.12',
    writes: false,
    async run(ctx) {
      const exchange = await ctx.send('GET', '/NoSuchResourceTypeScimkitCheck');
      expectScimError(exchange, 404, undefined, 'RFC 7644 §3.12: "404 Not Found: Specified resource (e.g., User) or endpoint does not exist"');
    },
  },
  {
    id: 'errors.invalid-json',
    tag: 'errors',
    title: 'A body that is not JSON is 400 invalidSyntax',
    reference: 'RFC 7644 §3.12',
    writes: true,
    applies: needsUsers,
    async run(ctx) {
      const exchange = await ctx.send('POST', ctx.users, { body: '{"schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"], "userName": ' });
      expectScimError(exchange, 400, 'invalidSyntax', 'RFC 7644 §3.12: "The request body message structure was invalid"');
    },
  },
  {
    id: 'errors.missing-required',
    tag: 'errors',
    title: 'A user without userName is 400 invalidValue',
    reference: 'RFC 7643 §4.1.1, RFC 7644 §3.12',
    writes: true,
    applies: needsUsers,
    async run(ctx) {
      const exchange = await ctx.send('POST', ctx.users, { body: { schemas: [SCIM_URN.user], displayName: `${ctx.prefix} no userName` } });
      expectScimError(exchange, 400, 'invalidValue', 'RFC 7644 §3.12: "A required value was missing"');
      const detail = bodyOf(exchange)['detail'];
      expectThat(typeof detail === 'string' && detail !== '', 'No detail', 'a detail saying what is wrong (RFC 7644 §3.12)', exchange);
    },
  },
  {
    id: 'errors.invalid-path',
    tag: 'errors',
    title: 'A PATCH path that does not parse is 400 invalidPath',
    reference: 'RFC 7644 §3.5.2, §3.12',
    writes: true,
    applies: all(needsUsers, needsPatch),
    async run(ctx) {
      const user = await ctx.createUser('invalid-path');
      const exchange = await ctx.patch(ctx.users, user.id, [{ op: 'replace', path: 'emails[type eq', value: 'x' }]);
      expectScimError(exchange, 400, 'invalidPath', 'RFC 7644 §3.12: "The path attribute was invalid or malformed"');
    },
  },
  {
    id: 'errors.mutability',
    tag: 'errors',
    title: 'PUT that changes the immutable id is refused',
    reference: 'RFC 7644 §3.5.1',
    writes: true,
    applies: needsUsers,
    async run(ctx) {
      const user = await ctx.createUser('mutability');
      const exchange = await ctx.send('PUT', ctx.pathOf(ctx.users, user.id), { body: { schemas: [SCIM_URN.user], id: `${user.id}-other`, userName: user['userName'] } });
      // RFC 7644 §3.5.1: id is readOnly: "ignored" for readOnly attributes, so 200 keeping the id, or 400 mutability.
      if (exchange.response.status === 200) {
        expectThat(bodyOf(exchange)['id'] === user.id, 'The id changed', `200 with the id unchanged, or 400 mutability (RFC 7644 §3.5.1: readOnly values are ignored)`, exchange);
      } else {
        expectScimError(exchange, 400, 'mutability', 'RFC 7644 §3.5.1, §3.12');
      }
    },
  },
  {
    id: 'errors.unauthenticated',
    tag: 'errors',
    title: 'A request without the token is 401',
    reference: 'RFC 7644 §2, §3.12',
    writes: false,
    applies: all(needsUsers, needsToken),
    async run(ctx) {
      // The client adds the token: remove it for this request (an empty Authorization is no credential).
      const exchange = await ctx.send('GET', ctx.users, { headers: { authorization: '' } });
      expectScimError(exchange, 401, undefined, 'RFC 7644 §3.12: "Authorization failure"');
    },
  },
];
