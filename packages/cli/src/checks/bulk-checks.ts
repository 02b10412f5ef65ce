import { SCIM_URN } from '@scimkit/client';
import type { Check } from '../check.js';
import { isObject, type CheckContext } from '../check-context.js';
import { all, needsBulk, needsGroups, needsUsers } from '../applies.js';
import { bodyOf, expectStatus, expectThat, pick } from '../expect.js';


/** The BulkResponse operations, and each created resource tracked for the clean-up. */
function operationsOf(ctx: CheckContext, exchange: Parameters<typeof bodyOf>[0]): Record<string, unknown>[] {
  const body = bodyOf(exchange);
  const operations = body['Operations'];
  expectThat(Array.isArray(operations), 'No Operations in the answer', 'a BulkResponse with Operations (RFC 7644 §3.7)', exchange);
  for (const operation of operations) {
    const location = pick(operation, 'location');
    if (String(pick(operation, 'method')).toUpperCase() === 'POST' && typeof location === 'string') {
      const id = decodeURIComponent(location.replace(/\/+$/, '').split('/').pop() ?? '');
      ctx.track(location.includes(ctx.groups) ? ctx.groups : ctx.users, id);
    }
  }
  return operations.filter(isObject);
}

const status = (operation: Record<string, unknown>): number => Number(isObject(operation['status']) ? operation['status']['code'] : operation['status']);

export const bulkChecks: readonly Check[] = [
  {
    id: 'bulk.bulk-id',
    tag: 'bulk',
    title: 'POST /Bulk: a group whose member is a user created in the same request (bulkId)',
    reference: 'RFC 7644 §3.7.2',
    writes: true,
    applies: all(needsBulk, needsUsers, needsGroups),
    async run(ctx) {
      const body = {
        schemas: [SCIM_URN.bulkRequest],
        Operations: [
          { method: 'POST', path: ctx.users, bulkId: 'member', data: { schemas: [SCIM_URN.user], userName: `${ctx.prefix}-bulk-member` } },
          { method: 'POST', path: ctx.groups, bulkId: 'group', data: { schemas: [SCIM_URN.group], displayName: `${ctx.prefix}-bulk-group`, members: [{ type: 'User', value: 'bulkId:member' }] } },
        ],
      };
      const exchange = await ctx.send('POST', '/Bulk', { body });
      expectStatus(exchange, 200, 'RFC 7644 §3.7: the BulkResponse is 200');
      const operations = operationsOf(ctx, exchange);
      const codes = operations.map(status);
      expectThat(codes.length === 2 && codes.every((code) => code === 201), `operation statuses ${JSON.stringify(codes)}`, 'both operations 201', exchange);
      const member = operations.find((op) => op['bulkId'] === 'member');
      const group = operations.find((op) => op['bulkId'] === 'group');
      expectThat(member !== undefined && group !== undefined, 'An operation lost its bulkId', 'each result carrying its bulkId (RFC 7644 §3.7.3)', exchange);
      const memberId = String(member['location']).split('/').pop() ?? '';
      const groupId = String(group['location']).split('/').pop() ?? '';
      const { resource, exchange: read } = await ctx.read(ctx.groups, decodeURIComponent(groupId));
      const members = pick(resource, 'members');
      expectThat(Array.isArray(members) && members.length === 1 && pick(members[0], 'value') === decodeURIComponent(memberId), `members are ${JSON.stringify(members)}`, 'the new user\'s id in place of bulkId:member', read);
    },
  },
  {
    id: 'bulk.fail-on-errors',
    tag: 'bulk',
    title: 'POST /Bulk with failOnErrors 1 stops after the first error',
    reference: 'RFC 7644 §3.7.3',
    writes: true,
    applies: all(needsBulk, needsUsers),
    async run(ctx) {
      const body = {
        schemas: [SCIM_URN.bulkRequest],
        failOnErrors: 1,
        Operations: [
          { method: 'POST', path: ctx.users, bulkId: 'bad', data: { schemas: [SCIM_URN.user], displayName: 'no userName' } },
          { method: 'POST', path: ctx.users, bulkId: 'after', data: { schemas: [SCIM_URN.user], userName: `${ctx.prefix}-bulk-after` } },
        ],
      };
      const exchange = await ctx.send('POST', '/Bulk', { body });
      expectStatus(exchange, 200, 'RFC 7644 §3.7.3');
      const operations = operationsOf(ctx, exchange);
      expectThat(operations.length === 1 && status(operations[0]!) === 400, `operation statuses ${JSON.stringify(operations.map(status))}`, 'one result, 400: the server stops after failOnErrors errors', exchange);
    },
  },
];
