/**
 * Memory store: heap per 100,000 typical users against a plain Map of the same objects, and the
 * speed of writes, index lookups and scans.
 *
 *   node --expose-gc --import tsx bench/memory-store.bench.ts
 */
import { createMemoryStore, createSchemaRegistry, userResourceType, type ScimResource, type ScimStore, type StoreQuery } from '@scimkit/core';
import { compileFilter, parseFilter } from '@scimkit/core/engine';

const USERS = Number(process.env['USERS'] ?? 100_000);
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

const model = createSchemaRegistry({ resourceTypes: [userResourceType] }).resourceType('User')!;
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
    const result = await store.create('User', user, ctx);
    if (!result.ok) throw new Error(`create failed: ${JSON.stringify(result)}`);
  }
  const createMs = performance.now() - begin;
  return { store, bytes: heapUsed() - before, createMs };
}

const mapBytes = measureMap();
const { store, bytes: storeBytes, createMs } = await measureStore();

// 2. Speed: lookups by index against a scan.
function query(text: string): StoreQuery {
  const parsed = parseFilter(text);
  if (!parsed.ok) throw new Error(parsed.error.detail);
  const compiled = compileFilter(parsed.value, model);
  if (!compiled.ok) throw new Error(compiled.error.detail);
  return { filter: parsed.value, semantics: { matches: compiled.value, attribute: (path) => model.facts(path) }, startIndex: 1, count: 100 };
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
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
console.log(`memory store, ${USERS.toLocaleString('en')} typical users (${mb(jsonBytes)} as JSON)\n`);
console.log('| measure | figure |\n|---|---|');
console.log(`| heap, plain Map of the users | ${mb(mapBytes)} |`);
console.log(`| heap, memory store (with indexes) | ${mb(storeBytes)} |`);
console.log(`| ratio store / Map (target ≤ 1.3) | ${(storeBytes / mapBytes).toFixed(3)} |`);
console.log(`| create, per user | ${((createMs / USERS) * 1000).toFixed(1)} µs |`);
for (const [label, figure] of rows) console.log(`| ${label} | ${figure} |`);
if (storeBytes / mapBytes > 1.3) process.exitCode = 1;
