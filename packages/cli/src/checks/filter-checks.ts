import type { Check } from '../check.js';
import type { CheckContext, Fixtures } from '../check-context.js';
import { all, needsFilter, needsUsers } from '../applies.js';
import { expectStatus, expectThat, listIds, sameSet } from '../expect.js';

interface FilterCase {
  readonly name: string;
  readonly title: string;
  readonly reference?: string;
  readonly idp?: 'entra';
  /** The filter, given the fixtures' scope prefix and run prefix. */
  readonly filter: (f: Fixtures, prefix: string) => string;
  /** Which of the three fixtures match. */
  readonly matches: readonly ('a' | 'b' | 'c')[];
  readonly option?: string;
}

const scoped = (f: Fixtures, rest: string): string => `userName sw "${f.scope}" and ${rest}`;

// The three fixtures: a (Alpha One, title Engineer, active, work email, externalId), b (Beta Two,
// Manager, inactive, work and home emails), c (Gamma Three, no title, active).
const CASES: readonly FilterCase[] = [
  { name: 'eq', title: 'eq', filter: (f) => `userName eq "${f.scope}b"`, matches: ['b'] },
  { name: 'ne', title: 'ne', filter: (f) => scoped(f, 'displayName ne "Alpha One"'), matches: ['b', 'c'] },
  { name: 'co', title: 'co', filter: (f) => scoped(f, 'displayName co "ta Tw"'), matches: ['b'] },
  { name: 'sw', title: 'sw', filter: (f) => `userName sw "${f.scope}"`, matches: ['a', 'b', 'c'] },
  { name: 'ew', title: 'ew', filter: (f) => scoped(f, 'displayName ew "Three"'), matches: ['c'] },
  { name: 'gt', title: 'gt (strings)', filter: (f) => scoped(f, `userName gt "${f.scope}a"`), matches: ['b', 'c'] },
  { name: 'ge', title: 'ge (strings)', filter: (f) => scoped(f, `userName ge "${f.scope}b"`), matches: ['b', 'c'] },
  { name: 'lt', title: 'lt (strings)', filter: (f) => scoped(f, `userName lt "${f.scope}b"`), matches: ['a'] },
  { name: 'le', title: 'le (strings)', filter: (f) => scoped(f, `userName le "${f.scope}b"`), matches: ['a', 'b'] },
  { name: 'pr', title: 'pr', filter: (f) => scoped(f, 'title pr'), matches: ['a', 'b'] },
  { name: 'and', title: 'and', filter: (f) => scoped(f, 'active eq true and title eq "Engineer"'), matches: ['a'] },
  { name: 'or', title: 'or', filter: (f) => `userName eq "${f.scope}a" or userName eq "${f.scope}c"`, matches: ['a', 'c'] },
  { name: 'not', title: 'not ( )', filter: (f) => scoped(f, 'not (displayName eq "Alpha One")'), matches: ['b', 'c'] },
  { name: 'precedence', title: 'and binds tighter than or; parentheses', filter: (f) => scoped(f, '(title eq "Engineer" or title eq "Manager") and active eq false'), matches: ['b'] },
  { name: 'boolean', title: 'a boolean value', filter: (f) => scoped(f, 'active eq false'), matches: ['b'] },
  { name: 'value-path', title: 'a value filter: emails[type eq "home"]', filter: (f) => scoped(f, 'emails[type eq "home"]'), matches: ['b'] },
  { name: 'sub-attribute', title: 'a sub-attribute: emails.value', filter: (f, p) => scoped(f, `emails.value eq "a@${p}.example.com"`), matches: ['a'] },
  { name: 'datetime', title: 'gt on meta.created (dateTime)', filter: (f) => scoped(f, 'meta.created gt "2000-01-01T00:00:00Z"'), matches: ['a', 'b', 'c'] },
  {
    name: 'case-insensitive',
    title: 'attribute names and operators in any case; userName without case',
    reference: 'RFC 7644 §3.4.2.2; RFC 7643 §2.1, §4.1.1',
    filter: (f) => `USERNAME EQ "${f.scope.toUpperCase()}B"`,
    matches: ['b'],
  },
  {
    name: 'entra-external-id',
    title: "Entra ID's lookup by externalId eq",
    reference: 'Microsoft Entra ID provisioning',
    idp: 'entra',
    filter: (_f, p) => `externalId eq "${p}-ext-a"`,
    matches: ['a'],
  },
];

function filterCheck(test: FilterCase): Check {
  return {
    id: `filters.${test.name}`,
    tag: 'filters',
    title: `filter: ${test.title}`,
    reference: test.reference ?? 'RFC 7644 §3.4.2.2',
    ...(test.idp === undefined ? {} : { idp: test.idp }),
    writes: true,
    applies: all(needsUsers, needsFilter),
    async run(ctx: CheckContext) {
      const f = await ctx.fixtures();
      const filter = test.filter(f, ctx.prefix);
      const exchange = await ctx.send('GET', ctx.users, { query: { filter, count: 50 } });
      expectStatus(exchange, 200, `RFC 7644 §3.4.2.2: the server advertises filter.supported`, test.option);
      const expected = test.matches.map((key) => f[key].id);
      const found = listIds(exchange);
      const names = (ids: readonly string[]) => ids.map((id) => (['a', 'b', 'c'] as const).find((key) => f[key].id === id) ?? id).join(', ') || 'none';
      expectThat(sameSet(found, expected), `Matched ${names(found)}`, `exactly ${names(expected)} of the three fixture users`, exchange, test.option);
    },
  };
}

export const filterChecks: readonly Check[] = CASES.map(filterCheck);
