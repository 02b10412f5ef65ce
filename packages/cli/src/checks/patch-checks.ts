import { SCIM_URN } from '@scimkit/client';
import type { Check, Idp } from '../check.js';
import { all, needsAttribute, needsEnterprise, needsPatch, needsUsers, type Condition } from '../applies.js';
import { expectStatus, expectThat, pick, pickExtension } from '../expect.js';


interface PatchCase {
  readonly name: string;
  readonly title: string;
  readonly reference: string;
  readonly idp?: Idp;
  /** What else the server must support (beyond Users and PATCH) for the case to apply. */
  readonly needs?: readonly Condition[];
  /** The user's attributes before the PATCH. */
  readonly start: (prefix: string) => Record<string, unknown>;
  readonly operations: (prefix: string) => unknown[];
  /** Checks the user read back after the PATCH; returns what is wrong, or undefined. */
  readonly verify: (user: Record<string, unknown>, prefix: string) => string | undefined;
  readonly expected: string;
  /** Statuses other than 200/204 the check accepts as "the PATCH failed as due" (for atomic checks). */
  readonly status?: readonly number[];
  /**
   * For a scimkit server, the option that changes the outcome: a name, or a function of the user
   * read back (undefined when the PATCH itself was refused) for a case where it depends on what failed.
   */
  readonly option?: string | ((user: Record<string, unknown> | undefined) => string | undefined);
}

const email = (user: Record<string, unknown>, type: string): unknown => {
  const emails = pick(user, 'emails');
  return Array.isArray(emails) ? emails.find((entry) => pick(entry, 'type') === type) : undefined;
};

const CASES: readonly PatchCase[] = [
  {
    name: 'replace-path',
    title: 'replace with a path: name.givenName',
    reference: 'RFC 7644 §3.5.2.3',
    start: () => ({ name: { givenName: 'Before', familyName: 'Kept' } }),
    operations: () => [{ op: 'replace', path: 'name.givenName', value: 'After' }],
    verify: (user) => (pick(user, 'name.givenName') === 'After' && pick(user, 'name.familyName') === 'Kept' ? undefined : `name is ${JSON.stringify(pick(user, 'name'))}`),
    expected: 'name.givenName "After", familyName still "Kept"',
  },
  {
    name: 'add-multi-valued',
    title: 'add an element to a multi-valued attribute',
    reference: 'RFC 7644 §3.5.2.1',
    start: (p) => ({ emails: [{ value: `w@${p}.example.com`, type: 'work' }] }),
    operations: (p) => [{ op: 'add', path: 'emails', value: [{ value: `h@${p}.example.com`, type: 'home' }] }],
    verify: (user) => (email(user, 'work') !== undefined && email(user, 'home') !== undefined ? undefined : `emails are ${JSON.stringify(pick(user, 'emails'))}`),
    expected: 'both the work and the new home email',
  },
  {
    name: 'remove-value-filter',
    title: 'remove with a value filter: emails[type eq "home"]',
    reference: 'RFC 7644 §3.5.2.2',
    start: (p) => ({ emails: [{ value: `w@${p}.example.com`, type: 'work' }, { value: `h@${p}.example.com`, type: 'home' }] }),
    operations: () => [{ op: 'remove', path: 'emails[type eq "home"]' }],
    verify: (user) => (email(user, 'work') !== undefined && email(user, 'home') === undefined ? undefined : `emails are ${JSON.stringify(pick(user, 'emails'))}`),
    expected: 'only the work email left',
  },
  {
    name: 'replace-value-filter-sub',
    title: 'replace a sub-attribute through a value filter: emails[type eq "work"].value',
    reference: 'RFC 7644 §3.5.2.3',
    start: (p) => ({ emails: [{ value: `w@${p}.example.com`, type: 'work' }] }),
    operations: (p) => [{ op: 'replace', path: 'emails[type eq "work"].value', value: `new@${p}.example.com` }],
    verify: (user, p) => (pick(email(user, 'work'), 'value') === `new@${p}.example.com` ? undefined : `emails are ${JSON.stringify(pick(user, 'emails'))}`),
    expected: 'the work email replaced',
  },
  {
    name: 'remove-attribute',
    title: 'remove a single-valued attribute',
    reference: 'RFC 7644 §3.5.2.2',
    start: () => ({ title: 'Temporary' }),
    operations: () => [{ op: 'remove', path: 'title' }],
    verify: (user) => (pick(user, 'title') === undefined ? undefined : `title is ${JSON.stringify(pick(user, 'title'))}`),
    expected: 'no title',
  },
  {
    name: 'pathless-add',
    title: 'add without a path: the value is an object of attributes',
    reference: 'RFC 7644 §3.5.2.1',
    needs: [needsAttribute('nickName'), needsAttribute('title')],
    start: () => ({}),
    operations: () => [{ op: 'add', value: { nickName: 'Nick', title: 'Added' } }],
    verify: (user) => (pick(user, 'nickName') === 'Nick' && pick(user, 'title') === 'Added' ? undefined : `nickName ${JSON.stringify(pick(user, 'nickName'))}, title ${JSON.stringify(pick(user, 'title'))}`),
    expected: 'nickName "Nick" and title "Added"',
  },
  {
    name: 'atomic',
    title: 'an operation that fails leaves the resource unchanged (all or nothing)',
    reference: 'RFC 7644 §3.5.2',
    start: () => ({ title: 'Unchanged' }),
    operations: () => [
      { op: 'replace', path: 'title', value: 'Changed' },
      { op: 'replace', path: 'active', value: 'not a boolean at all' },
    ],
    status: [400],
    verify: (user) => (pick(user, 'title') === 'Unchanged' ? undefined : `title is ${JSON.stringify(pick(user, 'title'))}: the first operation was kept`),
    expected: 'title still "Unchanged": "the entire PATCH MUST NOT be applied" when one operation fails',
  },
  {
    name: 'entra-capitalised-ops',
    title: "Entra ID's update: \"Replace\"/\"Add\" ops, a value path, a string boolean",
    reference: 'Microsoft Entra ID provisioning',
    idp: 'entra',
    start: (p) => ({ active: true, emails: [{ value: `w@${p}.example.com`, type: 'work', primary: true }] }),
    operations: (p) => [
      { op: 'Replace', path: 'displayName', value: 'Renamed' },
      { op: 'Replace', path: 'emails[type eq "work"].value', value: `updated@${p}.example.com` },
      { op: 'Replace', path: 'name.givenName', value: 'Given' },
      { op: 'Replace', path: 'active', value: 'False' },
      { op: 'Add', path: 'title', value: 'Engineer' },
    ],
    verify: (user, p) => {
      const wanted: [string, unknown, unknown][] = [
        ['displayName', pick(user, 'displayName'), 'Renamed'],
        ['emails[type eq "work"].value', pick(email(user, 'work'), 'value'), `updated@${p}.example.com`],
        ['name.givenName', pick(user, 'name.givenName'), 'Given'],
        ['active', pick(user, 'active'), false],
        ['title', pick(user, 'title'), 'Engineer'],
      ];
      const wrong = wanted.filter(([, found, want]) => found !== want).map(([path, found, want]) => `${path} is ${JSON.stringify(found)}, not ${JSON.stringify(want)}`);
      return wrong.length === 0 ? undefined : `Not applied: ${wrong.join('; ')}`;
    },
    expected: 'every operation applied, "False" read as false',
    // A refused "False" (400), or an active left true, is the string boolean; anything else is not.
    option: (user) => (user === undefined || pick(user, 'active') !== false ? 'compatibility.stringBooleans' : undefined),
  },
  {
    name: 'entra-path-keys-in-value',
    title: "Entra ID's path-less replace whose value keys are paths (name.givenName)",
    reference: 'Microsoft Entra ID provisioning',
    idp: 'entra',
    start: () => ({ name: { givenName: 'Before', familyName: 'Family' } }),
    operations: () => [{ op: 'Replace', value: { 'name.givenName': 'After', displayName: 'Path Keys' } }],
    verify: (user) => (pick(user, 'name.givenName') === 'After' && pick(user, 'name.familyName') === 'Family' && pick(user, 'displayName') === 'Path Keys' ? undefined : `the user is ${JSON.stringify(user)}`),
    expected: 'name.givenName "After" (familyName kept), displayName "Path Keys"',
    option: 'compatibility.pathKeysInValue',
  },
  {
    name: 'entra-manager-string',
    title: "Entra ID's manager: the enterprise manager as a bare id string",
    reference: 'Microsoft Entra ID provisioning',
    idp: 'entra',
    needs: [needsEnterprise, needsAttribute(`${SCIM_URN.enterpriseUser}:manager`)],
    start: () => ({}),
    operations: (p) => [{ op: 'Add', path: `${SCIM_URN.enterpriseUser}:manager`, value: `${p}-manager-id` }],
    verify: (user, p) => (pickExtension(user, SCIM_URN.enterpriseUser, 'manager.value') === `${p}-manager-id` ? undefined : `manager is ${JSON.stringify(pickExtension(user, SCIM_URN.enterpriseUser, 'manager'))}`),
    expected: 'manager.value set to the id sent',
    option: 'compatibility.managerAsString',
  },
  {
    name: 'entra-create-missing-value-path',
    title: "Entra ID's replace of emails[type eq \"work\"].value on a user without a work email",
    reference: 'Microsoft Entra ID provisioning',
    idp: 'entra',
    start: () => ({}),
    operations: (p) => [{ op: 'Replace', path: 'emails[type eq "work"].value', value: `created@${p}.example.com` }],
    verify: (user, p) => (pick(email(user, 'work'), 'value') === `created@${p}.example.com` ? undefined : `emails are ${JSON.stringify(pick(user, 'emails'))}`),
    expected: 'a work email created with that value (RFC 7644 §3.5.2.3 would answer 400 noTarget; Entra ID expects the element created)',
    // Without the option a scimkit server answers 400 noTarget; a PATCH accepted but not kept is something else.
    option: (user) => (user === undefined ? 'compatibility.createMissingValuePath' : undefined),
  },
  {
    name: 'google-replace-paths',
    title: "Google's update: several replace operations with paths in one request",
    reference: 'Google Workspace provisioning (RFC 7644 §3.5.2.3)',
    idp: 'google',
    start: () => ({ name: { givenName: 'G', familyName: 'Before' }, active: true }),
    operations: () => [
      { op: 'replace', path: 'name.familyName', value: 'After' },
      { op: 'replace', path: 'displayName', value: 'G After' },
      { op: 'replace', path: 'active', value: false },
    ],
    verify: (user) => (pick(user, 'name.familyName') === 'After' && pick(user, 'displayName') === 'G After' && pick(user, 'active') === false ? undefined : `the user is ${JSON.stringify(user)}`),
    expected: 'familyName "After", displayName "G After", active false',
  },
];

function patchCheck(test: PatchCase): Check {
  return {
    id: `patch.${test.name}`,
    tag: 'patch',
    title: `PATCH: ${test.title}`,
    reference: test.reference,
    ...(test.idp === undefined ? {} : { idp: test.idp }),
    writes: true,
    applies: all(needsUsers, needsPatch, ...(test.needs ?? [])),
    async run(ctx) {
      const user = await ctx.createUser(`p-${test.name}`, test.start(ctx.prefix));
      const exchange = await ctx.patch(ctx.users, user.id, test.operations(ctx.prefix));
      const option = (read?: Record<string, unknown>): string | undefined => (typeof test.option === 'function' ? test.option(read) : test.option);
      expectStatus(exchange, test.status ?? [200, 204], test.status === undefined ? 'RFC 7644 §3.5.2: 200 with the resource or 204' : 'RFC 7644 §3.5.2: an invalid value is 400', option());
      const { resource, exchange: read } = await ctx.read(ctx.users, user.id);
      const wrong = test.verify(resource, ctx.prefix);
      expectThat(wrong === undefined, wrong ?? '', test.expected, read, option(resource));
    },
  };
}

export const patchChecks: readonly Check[] = CASES.map(patchCheck);
