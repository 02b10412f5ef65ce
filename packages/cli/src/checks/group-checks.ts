import type { Check } from '../check.js';
import type { CheckContext } from '../check-context.js';
import { all, needsFilter, needsGroups, needsPatch } from '../applies.js';
import { bodyOf, expectStatus, expectThat, listIds, pick, sameSet } from '../expect.js';

/** The member ids of a group as read back. */
async function memberIds(ctx: CheckContext, id: string) {
  const { resource, exchange } = await ctx.read(ctx.groups, id);
  const members = pick(resource, 'members');
  return { ids: Array.isArray(members) ? members.map((member) => String(pick(member, 'value'))) : [], exchange };
}

/** A group with `count` new users as members. */
async function groupWithMembers(ctx: CheckContext, label: string, count: number) {
  const members = [];
  for (let i = 0; i < count; i++) members.push(await ctx.createUser(`${label}-m${i}`));
  const group = await ctx.createGroup(label, { members: members.map((member) => ({ value: member.id })) });
  return { group, members };
}

/** Two new users added to a new group in one PATCH, one removed in another: only the other remains. */
async function addThenRemove(
  ctx: CheckContext,
  label: string,
  how: { add: (a: string, b: string) => unknown; remove: (a: string, b: string) => unknown; rule: string; remains: 'a' | 'b'; option?: string },
): Promise<void> {
  const group = await ctx.createGroup(label);
  const a = (await ctx.createUser(`${label}-a`)).id;
  const b = (await ctx.createUser(`${label}-b`)).id;
  expectStatus(await ctx.patch(ctx.groups, group.id, [how.add(a, b)]), [200, 204], 'RFC 7644 §3.5.2.1');
  expectStatus(await ctx.patch(ctx.groups, group.id, [how.remove(a, b)]), [200, 204], how.rule, how.option);
  const remains = how.remains === 'a' ? a : b;
  const after = await memberIds(ctx, group.id);
  expectThat(sameSet(after.ids, [remains]), `members are ${JSON.stringify(after.ids)}`, `only ${remains}`, after.exchange, how.option);
}

export const groupChecks: readonly Check[] = [
  {
    id: 'groups.create',
    tag: 'groups',
    title: 'POST /Groups with a member creates the group',
    reference: 'RFC 7644 §3.3, RFC 7643 §4.2',
    writes: true,
    applies: needsGroups,
    async run(ctx) {
      const member = await ctx.createUser('g-create-m');
      const group = await ctx.createGroup('g-create', { members: [{ value: member.id }] });
      const { ids, exchange } = await memberIds(ctx, group.id);
      expectThat(sameSet(ids, [member.id]), `members are ${JSON.stringify(ids)}`, `the one member ${member.id}`, exchange);
    },
  },
  {
    id: 'groups.patch-add-member',
    tag: 'groups',
    title: 'PATCH add members adds one member, keeps the others',
    reference: 'RFC 7644 §3.5.2.1',
    writes: true,
    applies: all(needsGroups, needsPatch),
    async run(ctx) {
      const { group, members } = await groupWithMembers(ctx, 'g-add', 1);
      const added = await ctx.createUser('g-add-new');
      const exchange = await ctx.patch(ctx.groups, group.id, [{ op: 'add', path: 'members', value: [{ value: added.id }] }]);
      expectStatus(exchange, [200, 204], 'RFC 7644 §3.5.2');
      const after = await memberIds(ctx, group.id);
      expectThat(sameSet(after.ids, [members[0]!.id, added.id]), `members are ${JSON.stringify(after.ids)}`, 'the old member and the new one', after.exchange);
    },
  },
  {
    id: 'groups.patch-remove-member',
    tag: 'groups',
    title: 'PATCH remove members[value eq "id"] removes that member only',
    reference: 'RFC 7644 §3.5.2.2',
    writes: true,
    applies: all(needsGroups, needsPatch),
    async run(ctx) {
      const { group, members } = await groupWithMembers(ctx, 'g-remove', 2);
      const exchange = await ctx.patch(ctx.groups, group.id, [{ op: 'remove', path: `members[value eq "${members[0]!.id}"]` }]);
      expectStatus(exchange, [200, 204], 'RFC 7644 §3.5.2');
      const after = await memberIds(ctx, group.id);
      expectThat(sameSet(after.ids, [members[1]!.id]), `members are ${JSON.stringify(after.ids)}`, `only ${members[1]!.id} left`, after.exchange);
    },
  },
  {
    id: 'groups.user-groups',
    tag: 'groups',
    title: "A member's User.groups names the group",
    reference: 'RFC 7643 §4.1.2',
    writes: true,
    applies: needsGroups,
    async run(ctx) {
      const { group, members } = await groupWithMembers(ctx, 'g-back', 1);
      const { resource, exchange } = await ctx.read(ctx.users, members[0]!.id);
      const list = pick(resource, 'groups');
      const ids = Array.isArray(list) ? list.map((entry) => String(pick(entry, 'value'))) : [];
      expectThat(ids.includes(group.id), `groups is ${JSON.stringify(list)}`, `groups holding ${group.id} (RFC 7643 §4.1.2: "a list of groups to which the user belongs")`, exchange);
    },
  },
  {
    id: 'groups.delete',
    tag: 'groups',
    title: 'DELETE /Groups/{id} is 204; the group is gone, its members stay',
    reference: 'RFC 7644 §3.6',
    writes: true,
    applies: needsGroups,
    async run(ctx) {
      const { group, members } = await groupWithMembers(ctx, 'g-delete', 1);
      const path = ctx.pathOf(ctx.groups, group.id);
      expectStatus(await ctx.send('DELETE', path), 204, 'RFC 7644 §3.6');
      expectStatus(await ctx.send('GET', path), 404, 'RFC 7644 §3.6: a deleted resource is 404');
      await ctx.read(ctx.users, members[0]!.id);
    },
  },
  {
    id: 'groups.entra-add-member',
    tag: 'groups',
    title: "Entra ID's member add: op \"Add\", value array",
    reference: 'Microsoft Entra ID provisioning',
    idp: 'entra',
    writes: true,
    applies: all(needsGroups, needsPatch),
    async run(ctx) {
      const group = await ctx.createGroup('g-entra-add');
      const member = await ctx.createUser('g-entra-add-m');
      const exchange = await ctx.patch(ctx.groups, group.id, [{ op: 'Add', path: 'members', value: [{ value: member.id }] }]);
      expectStatus(exchange, [200, 204], 'RFC 7644 §3.5.2; op is case-insensitive');
      const after = await memberIds(ctx, group.id);
      expectThat(sameSet(after.ids, [member.id]), `members are ${JSON.stringify(after.ids)}`, `the member ${member.id}`, after.exchange);
    },
  },
  {
    id: 'groups.entra-remove-value-array',
    tag: 'groups',
    title: "Entra ID's member removal: op \"Remove\", path members, value [{value}]",
    reference: 'Microsoft Entra ID provisioning',
    idp: 'entra',
    writes: true,
    applies: all(needsGroups, needsPatch),
    async run(ctx) {
      const { group, members } = await groupWithMembers(ctx, 'g-entra-rm', 2);
      const exchange = await ctx.patch(ctx.groups, group.id, [{ op: 'Remove', path: 'members', value: [{ value: members[0]!.id }] }]);
      expectStatus(exchange, [200, 204], 'Entra ID removes listed members this way', 'compatibility.removeValueArray');
      const after = await memberIds(ctx, group.id);
      expectThat(sameSet(after.ids, [members[1]!.id]), `members are ${JSON.stringify(after.ids)}`, `only ${members[1]!.id} left: the listed member removed, never all`, after.exchange, 'compatibility.removeValueArray');
    },
  },
  {
    id: 'groups.entra-lookup-excluding-members',
    tag: 'groups',
    title: "Entra ID's group lookup: filter displayName eq, excludedAttributes=members",
    reference: 'Microsoft Entra ID provisioning (RFC 7644 §3.4.2.5)',
    idp: 'entra',
    writes: true,
    applies: all(needsGroups, needsFilter),
    async run(ctx) {
      const { group } = await groupWithMembers(ctx, 'g-entra-find', 1);
      const exchange = await ctx.send('GET', ctx.groups, { query: { excludedAttributes: 'members', filter: `displayName eq "${String(group['displayName'])}"` } });
      expectStatus(exchange, 200, 'RFC 7644 §3.4.2');
      expectThat(sameSet(listIds(exchange), [group.id]), 'The group was not the one result', `the group ${group.id}`, exchange);
      const first = (bodyOf(exchange)['Resources'] as unknown[])[0];
      expectThat(pick(first, 'members') === undefined, 'members came back', 'no members (excludedAttributes, RFC 7644 §3.4.2.5)', exchange);
    },
  },
  {
    id: 'groups.okta-rename',
    tag: 'groups',
    title: "Okta's group rename: PATCH replace without path, value {id, displayName}",
    reference: 'Okta group push (RFC 7644 §3.5.2.3)',
    idp: 'okta',
    writes: true,
    applies: all(needsGroups, needsPatch),
    async run(ctx) {
      const group = await ctx.createGroup('g-okta');
      const displayName = `${ctx.prefix}-g-okta-renamed`;
      const exchange = await ctx.patch(ctx.groups, group.id, [{ op: 'replace', value: { id: group.id, displayName } }]);
      expectStatus(exchange, [200, 204], 'RFC 7644 §3.5.2.3; id in the value is the resource\'s own (readOnly, unchanged)');
      const { resource, exchange: read } = await ctx.read(ctx.groups, group.id);
      expectThat(pick(resource, 'displayName') === displayName, 'displayName was not replaced', `displayName ${JSON.stringify(displayName)}`, read);
    },
  },
  {
    id: 'groups.okta-members',
    tag: 'groups',
    title: "Okta's membership push: add members [{value, display}], remove members[value eq]",
    reference: 'Okta group push (RFC 7644 §3.5.2)',
    idp: 'okta',
    writes: true,
    applies: all(needsGroups, needsPatch),
    run: (ctx) =>
      addThenRemove(ctx, 'g-okta-members', {
        add: (a, b) => ({ op: 'add', path: 'members', value: [{ value: a, display: 'a' }, { value: b, display: 'b' }] }),
        remove: (a) => ({ op: 'remove', path: `members[value eq "${a}"]` }),
        rule: 'RFC 7644 §3.5.2.2',
        remains: 'b',
      }),
  },
  {
    id: 'groups.onelogin-members',
    tag: 'groups',
    title: "OneLogin's membership: add, then remove with a value array",
    reference: 'OneLogin provisioning',
    idp: 'onelogin',
    writes: true,
    applies: all(needsGroups, needsPatch),
    run: (ctx) =>
      addThenRemove(ctx, 'g-onelogin', {
        add: (a, b) => ({ op: 'add', path: 'members', value: [{ value: a }, { value: b }] }),
        remove: (_a, b) => ({ op: 'remove', path: 'members', value: [{ value: b }] }),
        rule: 'a remove with a value array',
        remains: 'a',
        option: 'compatibility.removeValueArray',
      }),
  },
];
