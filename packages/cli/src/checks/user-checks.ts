import { SCIM_URN } from '@scimkit/client';
import type { Check } from '../check.js';
import { isObject } from '../check-context.js';
import { all, needsFilter, needsPatch, needsUsers } from '../applies.js';
import { bodyOf, expectScimError, expectStatus, expectThat, listIds, pick } from '../expect.js';

const random = (): string => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

export const userChecks: readonly Check[] = [
  {
    id: 'users.create',
    tag: 'users',
    title: 'POST /Users creates a user: 201, id, meta, Location',
    reference: 'RFC 7644 §3.3',
    writes: true,
    applies: needsUsers,
    async run(ctx) {
      const endpoint = ctx.users;
      const body = { schemas: [SCIM_URN.user], userName: `${ctx.prefix}-create`, name: { givenName: 'Check', familyName: 'Create' } };
      const exchange = await ctx.send('POST', endpoint, { body });
      const created = exchange.response.body;
      if (isObject(created) && typeof created['id'] === 'string') ctx.track(endpoint, created['id']);
      expectStatus(exchange, 201, 'RFC 7644 §3.3: 201 Created');
      const resource = bodyOf(exchange);
      expectThat(typeof resource['id'] === 'string' && resource['id'] !== '', 'No id', 'an id assigned by the server (RFC 7643 §3.1)', exchange);
      expectThat(pick(resource, 'userName') === body.userName, 'userName is not the one sent', `userName ${JSON.stringify(body.userName)}`, exchange);
      expectThat(pick(resource, 'meta.resourceType') === 'User', 'meta.resourceType is not "User"', 'meta.resourceType "User" (RFC 7643 §3.1)', exchange);
      expectThat(typeof pick(resource, 'meta.created') === 'string', 'No meta.created', 'meta.created (RFC 7643 §3.1)', exchange);
      const location = exchange.response.headers.get('location');
      const metaLocation = pick(resource, 'meta.location');
      expectThat(location !== null && location === metaLocation, `Location is ${JSON.stringify(location)}, meta.location ${JSON.stringify(metaLocation)}`, 'a Location header equal to meta.location (RFC 7644 §3.1, §3.3)', exchange);
    },
  },
  {
    id: 'users.get',
    tag: 'users',
    title: 'GET /Users/{id} returns the user',
    reference: 'RFC 7644 §3.4.1',
    writes: true,
    applies: needsUsers,
    async run(ctx) {
      const user = await ctx.createUser('get', { displayName: 'Get Me' });
      const exchange = await ctx.send('GET', ctx.pathOf(ctx.users, user.id));
      expectStatus(exchange, 200, 'RFC 7644 §3.4.1');
      const resource = bodyOf(exchange);
      expectThat(resource['id'] === user.id && pick(resource, 'displayName') === 'Get Me', 'Another resource, or other values, came back', `the user ${user.id} with displayName "Get Me"`, exchange);
    },
  },
  {
    id: 'users.not-found',
    tag: 'users',
    title: 'GET /Users/{unknown id} is a 404 SCIM error',
    reference: 'RFC 7644 §3.4.1, §3.12',
    writes: false,
    applies: needsUsers,
    async run(ctx) {
      const exchange = await ctx.send('GET', `${ctx.users}/${random()}`);
      expectScimError(exchange, 404, undefined, 'RFC 7644 §3.12: "404 Not Found: Specified resource … does not exist"');
    },
  },
  {
    id: 'users.okta-not-found-detail',
    tag: 'users',
    title: 'A 404 says what was not found (detail)',
    reference: "Okta's SCIM 2.0 spec test",
    idp: 'okta',
    writes: false,
    applies: needsUsers,
    async run(ctx) {
      const exchange = await ctx.send('GET', `${ctx.users}/${random()}`);
      expectStatus(exchange, 404, 'RFC 7644 §3.12');
      const detail = bodyOf(exchange)['detail'];
      expectThat(typeof detail === 'string' && detail !== '', `detail is ${JSON.stringify(detail)}`, 'a non-empty detail (Okta\'s spec test checks it; RFC 7644 §3.12 detail is OPTIONAL)', exchange, "notFoundDetail: 'name'");
    },
  },
  {
    id: 'users.duplicate',
    tag: 'users',
    title: 'POST /Users with a taken userName (other case) is 409 uniqueness',
    reference: "RFC 7644 §3.3, §3.12; Okta's spec test",
    writes: true,
    applies: needsUsers,
    async run(ctx) {
      await ctx.createUser('dup');
      const exchange = await ctx.send('POST', ctx.users, { body: { schemas: [SCIM_URN.user], userName: `${ctx.prefix}-DUP`.toUpperCase() } });
      const body = exchange.response.body;
      if (isObject(body) && typeof body['id'] === 'string') ctx.track(ctx.users, body['id']);
      expectScimError(exchange, 409, 'uniqueness', 'RFC 7644 §3.3: a duplicate is 409 uniqueness; userName is caseExact false (RFC 7643 §4.1.1)');
    },
  },
  {
    id: 'users.replace',
    tag: 'users',
    title: 'PUT /Users/{id} replaces the user; attributes left out are cleared',
    reference: 'RFC 7644 §3.5.1',
    writes: true,
    applies: needsUsers,
    async run(ctx) {
      const user = await ctx.createUser('put', { displayName: 'Before', title: 'Temporary' });
      const body = { schemas: [SCIM_URN.user], userName: user['userName'], displayName: 'After' };
      const exchange = await ctx.send('PUT', ctx.pathOf(ctx.users, user.id), { body });
      expectStatus(exchange, 200, 'RFC 7644 §3.5.1');
      const { resource, exchange: read } = await ctx.read(ctx.users, user.id);
      expectThat(pick(resource, 'displayName') === 'After', 'displayName was not replaced', 'displayName "After"', read);
      expectThat(pick(resource, 'title') === undefined, 'title, left out of the PUT, is still there', 'title cleared: PUT replaces the whole resource (RFC 7644 §3.5.1)', read);
    },
  },
  {
    id: 'users.delete',
    tag: 'users',
    title: 'DELETE /Users/{id} is 204; the user is gone (404)',
    reference: 'RFC 7644 §3.6',
    writes: true,
    applies: needsUsers,
    async run(ctx) {
      const user = await ctx.createUser('delete');
      const path = ctx.pathOf(ctx.users, user.id);
      expectStatus(await ctx.send('DELETE', path), 204, 'RFC 7644 §3.6: 204 No Content');
      const again = await ctx.send('GET', path);
      expectStatus(again, 404, 'RFC 7644 §3.6: a deleted resource is 404');
    },
  },
  {
    id: 'users.okta-lookup',
    tag: 'users',
    title: 'filter userName eq in other case finds the user; an unknown one finds none',
    reference: "Okta's provisioning lookups (RFC 7643 §4.1.1 caseExact false)",
    idp: 'okta',
    writes: true,
    applies: all(needsUsers, needsFilter),
    async run(ctx) {
      const user = await ctx.createUser('lookup');
      const upper = String(user['userName']).toUpperCase();
      const found = await ctx.send('GET', ctx.users, { query: { filter: `userName eq "${upper}"`, startIndex: 1, count: 100 } });
      expectStatus(found, 200, 'RFC 7644 §3.4.2');
      expectThat(listIds(found).includes(user.id), 'The user was not found', `the user ${user.id}: userName compares without case`, found);
      const none = await ctx.send('GET', ctx.users, { query: { filter: `userName eq "${ctx.prefix}-nobody@example.com"`, startIndex: 1, count: 100 } });
      expectStatus(none, 200, 'RFC 7644 §3.4.2: no match is an empty list, not an error');
      expectThat(bodyOf(none)['totalResults'] === 0, 'totalResults is not 0', 'totalResults 0', none);
    },
  },
  {
    id: 'users.okta-create',
    tag: 'users',
    title: "Okta's create: application/json, password, active",
    reference: "Okta's SCIM 2.0 spec test",
    idp: 'okta',
    writes: true,
    applies: needsUsers,
    async run(ctx) {
      const userName = `${ctx.prefix}-okta@example.com`;
      const body = {
        schemas: [SCIM_URN.user],
        userName,
        name: { givenName: 'Okta', familyName: 'Check' },
        emails: [{ primary: true, value: userName, type: 'work' }],
        displayName: 'Okta Check',
        locale: 'en-US',
        externalId: `00u${random()}`,
        groups: [],
        password: 'Tr0ub4dor&3-horse',
        active: true,
      };
      const exchange = await ctx.send('POST', ctx.users, { body, headers: { 'content-type': 'application/json' } });
      const created = exchange.response.body;
      if (isObject(created) && typeof created['id'] === 'string') ctx.track(ctx.users, created['id']);
      expectStatus(exchange, 201, 'RFC 7644 §3.3; application/json is accepted as well as application/scim+json (RFC 7644 §8.1)');
      expectThat(pick(created, 'password') === undefined, 'The password came back', 'no password in the answer (RFC 7643 §4.1.1: returned "never")', exchange);
    },
  },
  {
    id: 'users.okta-deactivate',
    tag: 'users',
    title: "Okta's deactivation: PATCH replace without path, value {active: false}",
    reference: 'Okta provisioning (RFC 7644 §3.5.2.3)',
    idp: 'okta',
    writes: true,
    applies: all(needsUsers, needsPatch),
    async run(ctx) {
      const user = await ctx.createUser('deactivate', { active: true });
      const exchange = await ctx.patch(ctx.users, user.id, [{ op: 'replace', value: { active: false } }]);
      expectStatus(exchange, [200, 204], 'RFC 7644 §3.5.2: 200 with the resource or 204');
      const { resource, exchange: read } = await ctx.read(ctx.users, user.id);
      expectThat(pick(resource, 'active') === false, 'active is not false', 'active false', read);
    },
  },
  {
    id: 'users.onelogin-put-update',
    tag: 'users',
    title: "OneLogin's update: PUT of the whole user with changed name and email",
    reference: 'OneLogin provisioning (RFC 7644 §3.5.1)',
    idp: 'onelogin',
    writes: true,
    applies: needsUsers,
    async run(ctx) {
      const user = await ctx.createUser('onelogin', { emails: [{ value: `old@${ctx.prefix}.example.com`, type: 'work', primary: true }] });
      const body = {
        schemas: [SCIM_URN.user],
        id: user.id,
        userName: user['userName'],
        name: { givenName: 'One', familyName: 'Login' },
        emails: [{ value: `new@${ctx.prefix}.example.com`, type: 'work', primary: true }],
        active: true,
      };
      const exchange = await ctx.send('PUT', ctx.pathOf(ctx.users, user.id), { body });
      expectStatus(exchange, 200, 'RFC 7644 §3.5.1');
      const { resource, exchange: read } = await ctx.read(ctx.users, user.id);
      const emails = pick(resource, 'emails');
      expectThat(pick(resource, 'name.givenName') === 'One' && Array.isArray(emails) && emails.length === 1 && pick(emails[0], 'value') === body.emails[0]!.value, 'The user does not hold what the PUT sent', 'givenName "One" and the one new email', read);
    },
  },
];
