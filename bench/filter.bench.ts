/**
 * Filter evaluation part (`npm run bench -- filter`): six filters over 100,000 generated users,
 * scimkit's compiled predicate against a hand-written predicate with the same RFC semantics
 * (caseExact, any-match, same-element value paths, dateTime instants), scim2-parse-filter's
 * `filter()` and SCIMMY's `Filter.match()`. Match counts are checked against the hand-written
 * predicate first; a peer that counts differently is marked WRONG. Then sorting the users.
 */
import { filter as scim2Filter, parse as scim2Parse } from 'scim2-parse-filter';
import SCIMMY from 'scimmy';
import { compileFilter, compileSort, parseAttrPath, parseFilter, sortResources } from '../packages/core/src/engine/index.js';
import { createSchemaRegistry, builtinResourceTypes, type ResourceModel, type ScimResource } from '../packages/core/src/index.js';
import { milliseconds, round, table, writeResult, type Measure } from './lib/harness.js';
import { ENTERPRISE, generateUsers } from './lib/users.js';

const COUNT = Number(process.env.USERS ?? 100_000);
const userModel = createSchemaRegistry({ resourceTypes: builtinResourceTypes }).resourceType('User') as ResourceModel;
const USERS = generateUsers(COUNT);

type Predicate = (u: ScimResource) => boolean;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const CASES: { filter: string; hand: Predicate }[] = [
  { filter: 'userName eq "User50000@example.com"', hand: (u) => str(u.userName)?.toLowerCase() === 'user50000@example.com' },
  { filter: 'externalId eq "ext-777"', hand: (u) => u.externalId === 'ext-777' },
  { filter: 'displayName co "smith"', hand: (u) => str(u.displayName)?.toLowerCase().includes('smith') === true },
  {
    filter: 'emails[type eq "work" and value ew "@example.com"]',
    hand: (u) => (Array.isArray(u.emails) ? (u.emails as Record<string, unknown>[]) : []).some((e) => str(e?.type)?.toLowerCase() === 'work' && str(e?.value)?.toLowerCase().endsWith('@example.com') === true),
  },
  {
    filter: 'active eq true and meta.lastModified gt "2023-01-01T00:00:00Z"',
    hand: (() => {
      const t = Date.parse('2023-01-01T00:00:00Z');
      return (u: ScimResource) => u.active === true && Date.parse(u.meta.lastModified) > t;
    })(),
  },
  {
    filter: `title pr or ${ENTERPRISE}:department eq "sales"`,
    hand: (u) => (typeof u.title === 'string' && u.title !== '') || str((u[ENTERPRISE] as Record<string, unknown> | undefined)?.department)?.toLowerCase() === 'sales',
  },
];

const count = (p: Predicate) => () => {
  let n = 0;
  for (let i = 0; i < USERS.length; i++) if (p(USERS[i] as ScimResource)) n++;
  return n;
};

const rows: Record<string, unknown>[] = [];
const results: Record<string, unknown>[] = [];
for (const { filter, hand } of CASES) {
  const parsed = parseFilter(filter);
  if (!parsed.ok) throw new Error(parsed.error.detail);
  const compiled = compileFilter(parsed.value, userModel);
  if (!compiled.ok) throw new Error(compiled.error.detail);
  const expected = count(hand)();
  const contenders: Record<string, () => unknown> = { scimkit: count(compiled.value), 'hand-written': count(hand) };
  const counts: Record<string, number> = { scimkit: count(compiled.value)(), 'hand-written': expected };
  try {
    const predicate = scim2Filter(scim2Parse(filter)) as Predicate;
    contenders['scim2-parse-filter'] = count(predicate);
    counts['scim2-parse-filter'] = count(predicate)();
  } catch {
    counts['scim2-parse-filter'] = -1;
  }
  try {
    const scimmy = new SCIMMY.Types.Filter(filter);
    contenders.scimmy = () => scimmy.match(USERS as never[]).length;
    counts.scimmy = scimmy.match(USERS as never[]).length;
  } catch {
    counts.scimmy = -1;
  }
  if (counts.scimkit !== expected) throw new Error(`${filter}: scimkit matches ${counts.scimkit}, hand-written ${expected}`);
  const measured: Record<string, Measure> = milliseconds(contenders);
  const hand_ = (measured['hand-written'] as Measure).median;
  const row: Record<string, unknown> = { filter: filter.length > 48 ? `${filter.slice(0, 47)}…` : filter, matches: expected };
  for (const [name, m] of Object.entries(measured)) {
    row[`${name} ns/user`] = `${round((m.median * 1e6) / USERS.length)}${counts[name] !== expected ? ' WRONG' : ''}`;
  }
  row['scimkit ÷ hand'] = round((measured.scimkit as Measure).median / hand_);
  rows.push(row);
  results.push({ filter, expected, counts, milliseconds: measured });
}
table(`Filter evaluation over ${USERS.length} users (median ms of interleaved runs, as ns per user; WRONG: a different match count)`, rows);

// ---- sorting ----
const sortRows: Record<string, unknown>[] = [];
const sorts: Record<string, Measure> = {};
const attributes = ['displayName', 'name.familyName', 'userName', 'meta.lastModified', 'active'];
const comparators = Object.fromEntries(
  attributes.map((attr) => {
    const path = parseAttrPath(attr);
    if (!path.ok) throw new Error(path.error.detail);
    const compare = compileSort(path.value, 'ascending', userModel);
    if (!compare.ok) throw new Error(compare.error.detail);
    return [attr, compare.value];
  }),
);
const handCompare = (a: ScimResource, b: ScimResource): number => {
  const x = str(a.displayName)?.toLowerCase();
  const y = str(b.displayName)?.toLowerCase();
  if (x === undefined) return y === undefined ? 0 : 1;
  if (y === undefined) return -1;
  return x < y ? -1 : x > y ? 1 : 0;
};
Object.assign(
  sorts,
  milliseconds({
    ...Object.fromEntries(attributes.map((attr) => [attr, () => sortResources(USERS, comparators[attr] as never)])),
    'hand-written displayName': () => [...USERS].sort(handCompare),
  }),
);
const base = (sorts.displayName as Measure).median;
for (const [name, m] of Object.entries(sorts)) sortRows.push({ sortBy: name, ms: round(m.median), '÷ displayName': round(m.median / base) });
table(`Sorting ${USERS.length} users (sortResources with compileSort; median ms)`, sortRows);
writeResult('filter', { users: USERS.length, evaluation: results, sort: sorts });
