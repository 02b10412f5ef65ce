/**
 * Scaling part (`npm run bench -- scaling`): the same requests through the core (`handle()`, no
 * HTTP) over the memory store holding 10,000, 100,000 and 1,000,000 users (SIZES to change), loaded
 * through `createMemoryStore({ initial })` and through `create()`. What should stay flat (a get by
 * id, an indexed `userName eq`) and what grows with the data (a scan, a sorted page).
 */
import { createMemoryStore, createScimServer, groupResourceType, userResourceType, type ScimResource, type ScimStore } from '../packages/core/src/index.js';
import { measure, now, round, RUNS, table, writeResult } from './lib/harness.js';
import { generateUsers } from './lib/users.js';

const SIZES = (process.env.SIZES ?? '10000,100000,1000000').split(',').map(Number);
const UNIQUE = [{ path: 'userName', caseExact: false }];

async function timeEach(runs: number, work: (i: number) => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const started = now();
    for (let i = 0; i < runs; i++) await work(i);
    samples.push((now() - started) / runs);
  }
  return samples;
}

const rows: Record<string, unknown>[] = [];
const results: Record<string, unknown>[] = [];
for (const size of SIZES) {
  const users: ScimResource[] = generateUsers(size);
  for (const how of ['initial', 'create'] as const) {
    const loadStarted = now();
    let store: ScimStore;
    if (how === 'initial') store = createMemoryStore({ initial: { User: users } });
    else {
      store = createMemoryStore();
      for (const user of users) {
        const created = await store.create('User', user, { unique: UNIQUE });
        if (!created.ok) throw new Error(`create failed: ${created.reason}`);
      }
    }
    const loadMs = now() - loadStarted;
    const scim = createScimServer({ resourceTypes: [userResourceType, groupResourceType], store });
    const get = (path: string, query: Record<string, string> = {}) => scim.handle({ method: 'GET', path, query, headers: {} });
    const probe = await get('/Users', { filter: `userName eq "user${size - 1}@example.com"` });
    const found = (JSON.parse(probe.body ?? '{}') as { totalResults: number }).totalResults;
    const byId = await timeEach(2000, (i) => get(`/Users/id-${(i * 7919) % size}`));
    const byUserName = await timeEach(2000, (i) => get('/Users', { filter: `userName eq "user${(i * 7919) % size}@example.com"` }));
    const scan = await timeEach(1, () => get('/Users', { filter: 'displayName co "smithers"', count: '10' }));
    const sorted = await timeEach(1, () => get('/Users', { sortBy: 'meta.lastModified', count: '10' }));
    const row = {
      users: size,
      loaded: how,
      'load µs/user': round((loadMs * 1000) / size),
      'userName eq found': found,
      'GET by id µs': round(measure(byId).median * 1000),
      'userName eq µs': round(measure(byUserName).median * 1000),
      'displayName co (scan) ms': round(measure(scan).median),
      'sortBy=meta.lastModified ms': round(measure(sorted).median),
    };
    rows.push(row);
    results.push({ ...row, samples: { byId, byUserName, scan, sorted } });
  }
}
table('Scaling over the memory store (through handle(), no HTTP; medians)', rows);
writeResult('scaling', { sizes: SIZES, rows: results });
