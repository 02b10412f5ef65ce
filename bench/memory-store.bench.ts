/**
 * Memory store: heap per 100,000 typical users against a plain Map of the same objects, the speed
 * of writes, index lookups and scans, `userName eq` against the population size when loaded through
 * `initial`, and a PATCH-shaped replace adding one member to a 100,000-member group.
 *
 *   node --expose-gc --max-old-space-size=6144 --import tsx bench/memory-store.bench.ts
 */
import {
  createMemoryStore,
  createSchemaRegistry,
  groupResourceType,
  userResourceType,
  type ResourceModel,
  type ScimResource,
  type ScimStore,
  type StoreQuery,
} from '@scimkit/core';
import { compileFilter, parseFilter } from '@scimkit/core/engine';

const USERS = Number(process.env['USERS'] ?? 100_000);
/** Population sizes for the `userName eq` scaling table (compact users loaded through `initial`). */
const SCALES = (process.env['SCALES'] ?? '10000,100000,1000000').split(',').map(Number);
const MEMBERS = Number(process.env['MEMBERS'] ?? 100_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc --import tsx bench/memory-store.bench.ts');

/** Deterministic PRNG (mulberry32) so every run measures the same users. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = prng(7);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const GIVEN = ['Barbara', 'Ryan', 'Aiko', 'Mateo', 'Zoë', 'Priya', 'Lars', 'Fatima', 'Chen', 'Olu'];
const FAMILY = ['Jensen', 'Leenay', 'Yamada', 'García', 'Okafor', 'Nguyen', 'Schmidt', 'Haddad', 'Kowalski', 'Silva'];
const DEPARTMENTS = ['Sales', 'Engineering', 'Support', 'Finance', 'Marketing'];

/** A user as Entra or Okta provision it, in the stored form (id and meta assigned). */
function typicalUser(i: number): ScimResource {
  const given = pick(GIVEN);
  const family = pick(FAMILY);
  const userName = `${given}.${family}.${i}@example.com`.toLowerCase();
  const created = new Date(Date.UTC(2025, 0, 1) + Math.floor(random() * 3e10)).toISOString();
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
    id: globalThis.crypto.randomUUID(),
    externalId: globalThis.crypto.randomUUID(),
    userName,
    name: { formatted: `${given} ${family}`, familyName: family, givenName: given },
    displayName: `${given} ${family}`,
    active: random() > 0.1,
    emails: [{ value: userName, type: 'work', primary: true }],
    phoneNumbers: [{ value: `+1 555 ${String(Math.floor(random() * 1e7)).padStart(7, '0')}`, type: 'work' }],
    title: pick(['Engineer', 'Manager', 'Analyst', 'Director']),
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': {
      employeeNumber: String(100000 + i),
      department: pick(DEPARTMENTS),
      manager: { value: globalThis.crypto.randomUUID() },
    },
    meta: { resourceType: 'User', created, lastModified: created, version: 'W/"1"' },
  };
}

function heapUsed(): number {
  for (let i = 0; i < 4; i++) gc!();
  return process.memoryUsage().heapUsed;
}

const registry = createSchemaRegistry({ resourceTypes: [userResourceType, groupResourceType] });
const model = registry.resourceType('User')!;
const groupModel = registry.resourceType('Group')!;
const ctx = { unique: model.unique };
const source = Array.from({ length: USERS }, (_, i) => typicalUser(i));
const jsonBytes = source.reduce((sum, user) => sum + JSON.stringify(user).length, 0);

// 1. Heap: a plain Map of cloned users, then the memory store holding its own clones. Each is
//    built inside a function so no temporary of the other survives in this frame.
function measureMap(): number {
  const before = heapUsed();
  const map = new Map<string, ScimResource>();
  for (const user of source) map.set(user.id, structuredClone(user));
  const bytes = heapUsed() - before;
  if (map.size !== USERS) throw new Error('map is incomplete');
  return bytes;
}

async function measureStore(): Promise<{ store: ScimStore; bytes: number; createMs: number }> {
  const before = heapUsed();
  const store = createMemoryStore();
  const begin = performance.now();
  for (const user of source) {
    // A request body is parsed afresh: the store gets new objects and strings, as the Map does.
    const result = await store.create('User', structuredClone(user), ctx);
    if (!result.ok) throw new Error(`create failed: ${JSON.stringify(result)}`);
  }
  const createMs = performance.now() - begin;
  return { store, bytes: heapUsed() - before, createMs };
}

const mapBytes = measureMap();
const { store, bytes: storeBytes, createMs } = await measureStore();

// 2. Speed: lookups by index against a scan.
function query(text: string, on: ResourceModel = model): StoreQuery {
  const parsed = parseFilter(text);
  if (!parsed.ok) throw new Error(parsed.error.detail);
  const compiled = compileFilter(parsed.value, on);
  if (!compiled.ok) throw new Error(compiled.error.detail);
  return { filter: parsed.value, semantics: { matches: compiled.value, attribute: (path) => on.facts(path) }, startIndex: 1, count: 100 };
}
async function time(label: string, runs: number, work: (i: number) => Promise<unknown>): Promise<[string, string]> {
  const begin = performance.now();
  for (let i = 0; i < runs; i++) await work(i);
  const each = (performance.now() - begin) / runs;
  return [label, each < 1 ? `${(each * 1000).toFixed(1)} µs` : `${each.toFixed(1)} ms`];
}
const rows: [string, string][] = [];
rows.push(await time('get by id', 20_000, (i) => store.get('User', source[i % USERS]!.id)));
rows.push(await time('filter userName eq (index)', 20_000, (i) => store.query('User', query(`userName eq "${source[i % USERS]!['userName'] as string}"`))));
rows.push(await time('filter externalId eq (index)', 20_000, (i) => store.query('User', query(`externalId eq "${source[i % USERS]!.externalId}"`))));
rows.push(await time('filter displayName co (scan)', 10, () => store.query('User', query('displayName co "yamada"'))));
rows.push(await time('list page of 100, no filter', 2_000, (i) => store.query('User', { semantics: { matches: () => true, attribute: () => undefined }, startIndex: (i * 100) % USERS + 1, count: 100 })));
// 3. `userName eq` against the population size, each population loaded through `initial` (no
//    write before the first query): `initial` indexes `userName` as `create` does, so the first
//    lookup is a lookup too, and no lookup's time grows with the population. Each lookup includes
//    parsing and compiling its filter, as the server does per request.
function compactUser(i: number): ScimResource {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    id: `u-${i}`,
    userName: `user.${i}@example.com`,
    meta: { resourceType: 'User', created: '2026-01-01T00:00:00Z', lastModified: '2026-01-01T00:00:00Z', version: 'W/"1"' },
  };
}
const scaling: string[] = [];
for (const size of SCALES) {
  const loaded = createMemoryStore({ initial: { User: Array.from({ length: size }, (_, i) => compactUser(i)) } });
  const first = performance.now();
  const found = await loaded.query('User', query(`userName eq "USER.${size - 1}@example.com"`));
  const firstMs = performance.now() - first;
  if (found.totalResults !== 1) throw new Error('lookup after initial found nothing');
  const [, each] = await time('', 20_000, (i) => loaded.query('User', query(`userName eq "user.${(i * 7919) % size}@example.com"`)));
  scaling.push(`| ${size.toLocaleString('en')} | ${firstMs.toFixed(1)} ms | ${each} |`);
}

// 4. A PATCH-shaped replace: add one member to a MEMBERS-member group, passing `ctx.changes` as the
//    core does after a PATCH, against pushing one element to a plain array and against building the
//    new members array (which the core does anyway), all in this run.
const groupStore = createMemoryStore();
const memberElements = Array.from({ length: MEMBERS }, (_, i) => ({ value: `user-${i}`, type: 'User', display: `User ${i}` }));
await groupStore.create('Group', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], id: 'big', displayName: 'Everyone', members: memberElements, meta: { resourceType: 'Group', created: '2026-01-01T00:00:00Z', lastModified: '2026-01-01T00:00:00Z', version: 'W/"0"' } }, { unique: groupModel.unique });
await groupStore.query('Group', query('members.value eq "user-1"', groupModel)); // build the members.value index
const ADDS = 200;
let version = 0;
const [, replaceEach] = await time('', ADDS, async (i) => {
  const current = (await groupStore.get('Group', 'big'))!;
  const added = { value: `new-${i}`, type: 'User', display: `New ${i}` };
  const next = { ...current, members: [...(current['members'] as object[]), added], meta: { ...current.meta, version: `W/"${version + 1}"` } };
  const written = await groupStore.replace('Group', 'big', next, `W/"${version}"`, { unique: groupModel.unique, changes: [{ attribute: 'members', added: [added], removed: [] }] });
  if (!written.ok) throw new Error('replace failed');
  version++;
});
const replaceMs = parseMs(replaceEach);
const plain = [...memberElements];
const pushBegin = performance.now();
for (let i = 0; i < ADDS; i++) plain.push({ value: `p-${i}`, type: 'User', display: `P ${i}` });
const pushMs = (performance.now() - pushBegin) / ADDS;
let sink = 0;
const spreadBegin = performance.now();
for (let i = 0; i < ADDS; i++) sink += [...plain, { value: `s-${i}` }].length;
const spreadMs = (performance.now() - spreadBegin) / ADDS;
const cloneBegin = performance.now();
for (let i = 0; i < 5; i++) sink += (structuredClone((await groupStore.get('Group', 'big'))!)['members'] as object[]).length;
const cloneMs = (performance.now() - cloneBegin) / 5;
if (sink === 0) throw new Error('unreachable');
const [, memberLookup] = await time('', 20_000, (i) => groupStore.query('Group', query(`members.value eq "user-${(i * 7919) % MEMBERS}"`, groupModel)));

function parseMs(figure: string): number {
  return figure.endsWith(' µs') ? Number.parseFloat(figure) / 1000 : Number.parseFloat(figure);
}
const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
console.log(`memory store, ${USERS.toLocaleString('en')} typical users (${mb(jsonBytes)} as JSON)\n`);
console.log('| measure | figure |\n|---|---|');
console.log(`| heap, plain Map of the users | ${mb(mapBytes)} |`);
console.log(`| heap, memory store (with indexes) | ${mb(storeBytes)} |`);
console.log(`| ratio store / Map (target ≤ 1.3) | ${(storeBytes / mapBytes).toFixed(3)} |`);
console.log(`| create, per user | ${((createMs / USERS) * 1000).toFixed(1)} µs |`);
for (const [label, figure] of rows) console.log(`| ${label} | ${figure} |`);
console.log(`\nuserName eq, users loaded through initial\n`);
console.log('| users | first lookup | later lookups, each (parse + compile + lookup) |\n|---|---|---|');
for (const row of scaling) console.log(row);
console.log(`\nadd one member to a ${MEMBERS.toLocaleString('en')}-member group (${ADDS} times)\n`);
console.log('| operation | each | ratio to the store replace |\n|---|---|---|');
console.log(`| store: get + build next + replace with ctx.changes | ${fmt(replaceMs)} | 1 |`);
console.log(`| plain array push | ${fmt(pushMs)} | ${(pushMs / replaceMs).toFixed(4)} |`);
console.log(`| plain array spread + 1 (the new array) | ${fmt(spreadMs)} | ${(spreadMs / replaceMs).toFixed(2)} |`);
console.log(`| structuredClone of the group (the old store's copy) | ${fmt(cloneMs)} | ${(cloneMs / replaceMs).toFixed(1)} |`);
console.log(`| members.value eq (index lookup) | ${memberLookup} | |`);
if (storeBytes / mapBytes > 1.3) process.exitCode = 1;
