/**
 * Filter language benchmark: `npx tsx bench/filter.bench.ts`.
 *
 * 1. Parse throughput of parseFilter over a corpus of realistic filters (RFC 7644 examples, Entra, Okta).
 * 2. Evaluation time per resource over 100,000 generated users: the compiled predicate against a
 *    hand-written predicate with the same RFC semantics, measured in the same run; the ratio is what counts.
 * 3. Sorting 100,000 users with compileSort against a hand-written comparator.
 */
import { compileFilter, compileSort, parseAttrPath, parseFilter } from '../packages/core/src/engine/index.js';
import type { Filter } from '../packages/core/src/index.js';
import { builtinResourceTypes, createSchemaRegistry } from '../packages/core/src/schema/index.js';
import type { ScimResource } from '../packages/core/src/schema/scim-resource.js';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const registry = createSchemaRegistry({ resourceTypes: builtinResourceTypes });
const userModel = registry.resourceType('User');
if (userModel === undefined) throw new Error('no User resource type');

// ---- timing ----

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Median wall time of `rounds` runs of `run`, after warming up. */
function time(run: () => unknown, rounds = 15): number {
  for (let i = 0; i < 3; i++) run();
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

function table(rows: Record<string, string | number>[]): void {
  console.table(rows);
}

// ---- 1. parse throughput ----

const CORPUS = [
  'userName eq "bjensen"',
  `name.familyName co "O'Malley"`,
  'urn:ietf:params:scim:schemas:core:2.0:User:userName sw "J"',
  'title pr and userType eq "Employee"',
  'meta.lastModified gt "2011-05-13T04:42:34Z"',
  'userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")',
  'userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")',
  'emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]',
  'externalId eq "00u1esetvfOqk3Bj81d7"',
  'userName eq "isaac.brock@example.com"',
  'displayName eq "Engineering"',
  'emails[type eq "work"].value eq "jdoe@contoso.com"',
  `${ENTERPRISE}:employeeNumber eq "701984"`,
  'id eq "2819c223-7f76-453a-919d-413861904646" and members[value eq "902c246b-6245-4190-8e05-00816be7344a"]',
];

const PARSE_ROUNDS = 2_000;
let parsedCount = 0;
const parseMs = time(() => {
  for (let r = 0; r < PARSE_ROUNDS; r++) for (const text of CORPUS) if (parseFilter(text).ok) parsedCount++;
}, 7);
const parses = PARSE_ROUNDS * CORPUS.length;
const avgChars = CORPUS.reduce((n, t) => n + t.length, 0) / CORPUS.length;
console.log('\nParse throughput (parseFilter, %d realistic filters, avg %d chars)', CORPUS.length, Math.round(avgChars));
table([
  {
    'filters/s': Math.round((parses / parseMs) * 1000),
    'µs/filter': +((parseMs * 1000) / parses).toFixed(2),
    'MB/s': +(((avgChars * parses) / parseMs / 1000)).toFixed(1),
  },
]);
const refusedMs = time(() => parseFilter(`${'('.repeat(20_000)}a pr${')'.repeat(20_000)}`, { maxLength: 1_000_000 }), 7);
const bigMs = time(() => parseFilter(`userName eq "${'x'.repeat(1_000_000)}"`), 7);
console.log('Refusing a 20,000-deep filter: %s ms; a 1 MB filter: %s ms', refusedMs.toFixed(3), bigMs.toFixed(3));

// ---- 2. evaluation over 100,000 users ----

/** Deterministic PRNG (mulberry32), so every run sees the same users. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = prng(42);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const FIRST = ['Barbara', 'John', 'Ana', 'Wei', 'Fatima', 'Lars', 'Smith', 'Priya', 'Kofi', 'Zoë'];
const LAST = ['Jensen', 'Smith', 'Garcia', 'Chen', 'Okafor', 'Nielsen', 'Silva', 'Kowalski', 'Smithers', 'Ng'];
const DOMAINS = ['example.com', 'example.org', 'contoso.com', 'EXAMPLE.COM'];
const DEPARTMENTS = ['Sales', 'Engineering', 'Support', 'sales'];

const USERS: ScimResource[] = Array.from({ length: 100_000 }, (_, i) => {
  const first = pick(FIRST);
  const last = pick(LAST);
  const created = new Date(Date.UTC(2020, 0, 1) + Math.floor(random() * 5 * 365 * 86_400_000)).toISOString();
  const emails = [{ value: `${first}.${last}${i}@${pick(DOMAINS)}`.toLowerCase(), type: pick(['work', 'home']), primary: true }];
  if (random() < 0.5) emails.push({ value: `${first}${i}@${pick(DOMAINS)}`, type: pick(['work', 'home', 'other']), primary: false });
  const user: ScimResource = {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    id: `id-${i}`,
    externalId: `ext-${i}`,
    userName: `user${i}@example.com`,
    displayName: `${first} ${last}`,
    active: random() < 0.8,
    emails,
    meta: { resourceType: 'User', created, lastModified: created, version: `W/"${i}"` },
  };
  if (random() < 0.3) user.title = pick(['Engineer', 'Manager', 'Tour Guide']);
  if (random() < 0.5) user[ENTERPRISE] = { department: pick(DEPARTMENTS), employeeNumber: `${i}` };
  return user;
});

type Predicate = (u: ScimResource) => boolean;
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Each filter with a hand-written predicate of the same RFC semantics (caseExact, any-match, instants). */
const CASES: { filter: string; hand: Predicate }[] = [
  {
    filter: 'userName eq "User50000@example.com"',
    hand: (u) => str(u.userName)?.toLowerCase() === 'user50000@example.com',
  },
  {
    filter: 'externalId eq "ext-777"',
    hand: (u) => u.externalId === 'ext-777',
  },
  {
    filter: 'displayName co "smith"',
    hand: (u) => str(u.displayName)?.toLowerCase().includes('smith') === true,
  },
  {
    filter: 'emails[type eq "work" and value ew "@example.com"]',
    hand: (u) => {
      const emails = u.emails;
      if (!Array.isArray(emails)) return false;
      for (const e of emails as Record<string, unknown>[]) {
        if (str(e?.type)?.toLowerCase() === 'work' && str(e?.value)?.toLowerCase().endsWith('@example.com') === true) return true;
      }
      return false;
    },
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
    hand: (u) => {
      if (typeof u.title === 'string' && u.title !== '') return true;
      const ext = u[ENTERPRISE] as Record<string, unknown> | undefined;
      return str(ext?.department)?.toLowerCase() === 'sales';
    },
  },
];

const rows: Record<string, string | number>[] = [];
const ratios: number[] = [];
for (const { filter, hand } of CASES) {
  const parsed = parseFilter(filter);
  if (!parsed.ok) throw new Error(parsed.error.detail);
  const compiled = compileFilter(parsed.value as Filter, userModel);
  if (!compiled.ok) throw new Error(compiled.error.detail);
  const predicate = compiled.value;
  const expected = USERS.filter(hand).length;
  const actual = USERS.filter(predicate).length;
  if (expected !== actual) throw new Error(`${filter}: compiled matches ${actual}, hand-written ${expected}`);
  let sink = 0;
  const count = (p: Predicate) => () => {
    let n = 0;
    for (let i = 0; i < USERS.length; i++) if (p(USERS[i] as ScimResource)) n++;
    sink += n;
  };
  // Interleave the two so neither gets a warmer machine.
  const compiledSamples: number[] = [];
  const handSamples: number[] = [];
  for (let round = 0; round < 5; round++) {
    compiledSamples.push(time(count(predicate), 3));
    handSamples.push(time(count(hand), 3));
  }
  const c = median(compiledSamples);
  const h = median(handSamples);
  ratios.push(c / h);
  rows.push({
    filter: filter.length > 60 ? `${filter.slice(0, 57)}…` : filter,
    matches: actual,
    'compiled ns/resource': +((c * 1e6) / USERS.length).toFixed(1),
    'hand-written ns/resource': +((h * 1e6) / USERS.length).toFixed(1),
    'compiled / hand': +(c / h).toFixed(2),
  });
  if (sink < 0) console.log(sink);
}
console.log('\nEvaluation over %d users (compiled predicate vs hand-written, same run)', USERS.length);
table(rows);
const geomean = Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length);
console.log('Geometric mean compiled / hand-written: %s×', geomean.toFixed(2));

// ---- 3. sorting 100,000 users ----

const sortBy = parseAttrPath('displayName');
if (!sortBy.ok) throw new Error(sortBy.error.detail);
const comparator = compileSort(sortBy.value, 'ascending', userModel);
if (!comparator.ok) throw new Error(comparator.error.detail);
const compare = comparator.value;
const handCompare = (a: ScimResource, b: ScimResource): number => {
  const x = str(a.displayName)?.toLowerCase();
  const y = str(b.displayName)?.toLowerCase();
  if (x === undefined) return y === undefined ? 0 : 1;
  if (y === undefined) return -1;
  return x < y ? -1 : x > y ? 1 : 0;
};
const sortCompiled = time(() => [...USERS].sort(compare), 5);
const sortHand = time(() => [...USERS].sort(handCompare), 5);
console.log('\nSorting %d users by displayName (caseExact false)', USERS.length);
table([{ 'compiled ms': +sortCompiled.toFixed(1), 'hand-written ms': +sortHand.toFixed(1), 'compiled / hand': +(sortCompiled / sortHand).toFixed(2) }]);
if (parsedCount === 0) console.log('no filter parsed');
