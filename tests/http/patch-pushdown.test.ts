import { PGlite } from '@electric-sql/pglite';
import { createMemoryStore, createScimServer, groupResourceType, userResourceType, type ChangeEvent, type ScimStore } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { createPostgresStore, fromPGlite, migrate, type SqlClient } from '@scimkit/postgres';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scimClient, type ScimClient, type ScimReply } from './support/scim-client.js';
import { serveAtScimV2 } from './support/serve-at-scim-v2.js';
import type { StartedService } from './support/service-under-test.js';

// A PATCH the store applies in one step (ScimStore.assign) answers exactly as the read path (get,
// then compare-and-swap replace) does: the same statuses, bodies and ETag sequence, over HTTP, for
// the memory store and the PostgreSQL store. Each scenario runs on two servers over two stores of
// one kind: one store as it is, one with `assign` hidden.

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const patchOf = (...operations: unknown[]) => ({ schemas: [PATCH_OP], Operations: operations });

let pg: SqlClient | undefined;
let schemas = 0;
beforeAll(async () => {
  pg = fromPGlite(await PGlite.create());
}, 120_000);

const started: StartedService[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((service) => service.close()));
});

/** Store calls by method name. */
type Calls = Record<string, number>;

/** `store` counting its calls, with or without `assign`. */
function observed(store: ScimStore, calls: Calls, pushdown: boolean): ScimStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'assign' && !pushdown) return undefined;
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      return (...args: unknown[]) => {
        calls[key] = (calls[key] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

interface Side {
  readonly client: ScimClient;
  readonly calls: Calls;
  /** With a request log: the changes it recorded, in order. */
  readonly changes: ChangeEvent[];
}

async function side(store: ScimStore, pushdown: boolean, maxResourceBytes: number | undefined, log: boolean): Promise<Side> {
  const calls: Calls = {};
  const changes: ChangeEvent[] = [];
  const scim = createScimServer({
    resourceTypes: [userResourceType, groupResourceType],
    store: observed(store, calls, pushdown),
    logger: { log: () => undefined },
    ...(maxResourceBytes === undefined ? {} : { limits: { maxResourceBytes } }),
    ...(log ? { requestLog: { record: (recorded: { changes: readonly ChangeEvent[] }) => void changes.push(...recorded.changes) } } : {}),
  });
  const service = await serveAtScimV2(createNodeHandler(scim, { basePath: '/scim/v2' }));
  started.push(service);
  return { client: scimClient(service.baseUrl), calls, changes };
}

/** One step of a scenario: what to send, given the ids of the user and the group on that side. */
type Step = (client: ScimClient, ids: { user: string; group: string }) => Promise<ScimReply>;

/**
 * A reply with what differs between two servers made comparable: the ids, and the timestamps as
 * their order of appearance on that side (so a kept lastModified stays equal, a new one does not).
 */
function comparable(reply: ScimReply, ids: { user: string; group: string }, times: Map<string, number>, baseUrl: string): unknown {
  const text = reply.text.replaceAll(baseUrl, '<base>').replaceAll(ids.user, '<user>').replaceAll(ids.group, '<group>');
  const body = text === '' ? undefined : (JSON.parse(text) as unknown);
  const stamp = (value: unknown) => stamped(value, times);
  const location = reply.headers.get('location');
  return { status: reply.status, etag: reply.headers.get('etag'), location: location?.replace(baseUrl, '<base>').replace(ids.user, '<user>').replace(ids.group, '<group>'), body: stamp(body) };
}

/** `value` with each `created` and `lastModified` as its order of appearance in `times`. */
function stamped(value: unknown, times: Map<string, number>): unknown {
  if (Array.isArray(value)) return value.map((element) => stamped(element, times));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if ((key === 'created' || key === 'lastModified') && typeof member === 'string') {
      if (!times.has(member)) times.set(member, times.size);
      out[key] = `t${times.get(member)}`;
    } else out[key] = stamped(member, times);
  }
  return out;
}

/** Changes a request log recorded, comparable between the sides (as `comparable`), without their request ids. */
function comparableChanges(changes: readonly ChangeEvent[], ids: { user: string; group: string }, baseUrl: string): unknown {
  const text = JSON.stringify(changes.map(({ requestId: _requestId, ...change }) => change));
  return stamped(JSON.parse(text.replaceAll(baseUrl, '<base>').replaceAll(ids.user, '<user>').replaceAll(ids.group, '<group>')), new Map());
}

/** Runs `steps` on both sides from the same user and group; the comparable replies of each side. */
async function runBoth(fresh: () => Promise<ScimStore>, steps: readonly Step[], maxResourceBytes?: number, log = false) {
  const sides = [await side(await fresh(), true, maxResourceBytes, log), await side(await fresh(), false, maxResourceBytes, log)];
  const replies: unknown[][] = [];
  const logged: unknown[] = [];
  for (const { client, changes } of sides) {
    const created = await client.post('/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'pat', displayName: 'Pat', name: { familyName: 'Doe' }, active: true });
    const user = created.body.id as string;
    const grouped = await client.post('/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Team', members: [{ value: user }] });
    const ids = { user, group: grouped.body.id as string };
    const times = new Map<string, number>();
    const mine: unknown[] = [comparable(created, ids, times, client.baseUrl), comparable(grouped, ids, times, client.baseUrl)];
    for (const step of steps) {
      mine.push(comparable(await step(client, ids), ids, times, client.baseUrl));
      // Distinct lastModified values on both sides.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    replies.push(mine);
    logged.push(comparableChanges(changes, ids, client.baseUrl));
  }
  return { pushed: replies[0] as unknown[], read: replies[1] as unknown[], calls: [sides[0]?.calls as Calls, sides[1]?.calls as Calls] as const, logged };
}

const user = (ids: { user: string }) => `/Users/${ids.user}`;

const SCENARIO: readonly Step[] = [
  (c, ids) => c.patch(user(ids), patchOf({ op: 'replace', path: 'displayName', value: 'Pat Renamed' })),
  // The same value again: unchanged, the ETag and lastModified kept.
  (c, ids) => c.patch(user(ids), patchOf({ op: 'replace', path: 'displayName', value: 'Pat Renamed' })),
  (c, ids) => c.patch(user(ids), patchOf({ op: 'add', path: 'name.givenName', value: 'Pat' })),
  (c, ids) => c.patch(user(ids), patchOf({ op: 'replace', value: { active: 'False', title: 'Lead', name: { middleName: 'Q' } } })),
  (c, ids) => c.patch(user(ids), patchOf({ op: 'Replace', path: 'name', value: { honorificPrefix: 'Dr' } }, { op: 'add', path: 'nickName', value: 'P' })),
  (c, ids) => c.patch(user(ids), patchOf({ op: 'replace', path: 'title', value: 'Head' }), { headers: { 'If-Match': 'W/"5"' } }),
  (c, ids) => c.patch(user(ids), patchOf({ op: 'replace', path: 'title', value: 'Stale' }), { headers: { 'If-Match': 'W/"2"' } }),
  (c, ids) => c.patch(user(ids), patchOf({ op: 'replace', path: 'title', value: 'Head' }), { headers: { 'If-Match': 'W/"2"' } }),
  (c, ids) => c.patch(user(ids), patchOf({ op: 'replace', path: 'title', value: 'Strong' }), { headers: { 'If-Match': '"6"' } }),
  (c, ids) => c.patch(user(ids), patchOf({ op: 'replace', path: 'locale', value: 'de-DE' }), { query: { attributes: 'locale,groups' } }),
  (c, ids) => c.patch(user(ids), patchOf({ op: 'replace', path: 'locale', value: 'fr-FR' }), { query: { excludedAttributes: 'name,groups' } }),
  (c, ids) => c.patch(user(ids), patchOf({ op: 'replace', path: 'timezone', value: 'Europe/Paris' }), { headers: { Prefer: 'return=minimal' } }),
  (c, ids) => c.patch(user(ids), patchOf({ op: 'replace', path: 'password', value: 'secret-1' })),
  // Refused on both paths (a wrong type, a readOnly attribute, a unique one taken by nobody, an unknown one).
  (c, ids) => c.patch(user(ids), patchOf({ op: 'replace', path: 'displayName', value: 5 })),
  (c, ids) => c.patch(user(ids), patchOf({ op: 'replace', path: 'id', value: 'x' })),
  (c, ids) => c.patch(user(ids), patchOf({ op: 'replace', path: 'userName', value: 'pat2' })),
  (c, ids) => c.patch(user(ids), patchOf({ op: 'replace', path: 'noSuchAttribute', value: 'x' })),
  (c, ids) => c.patch(user(ids), patchOf({ op: 'remove', path: 'nickName' }, { op: 'replace', path: 'title', value: 'After remove' })),
  (c) => c.patch('/Users/no-such-user', patchOf({ op: 'replace', path: 'displayName', value: 'Ghost' })),
  (c, ids) => c.patch(`/Groups/${ids.group}`, patchOf({ op: 'replace', path: 'displayName', value: 'Team Renamed' })),
  (c, ids) => c.get(user(ids)),
  (c, ids) => c.get(`/Groups/${ids.group}`),
];

async function memoryStore(): Promise<ScimStore> {
  return createMemoryStore();
}

async function postgresStore(): Promise<ScimStore> {
  if (pg === undefined) throw new Error('PGlite has not started');
  const schema = `pushdown${++schemas}`;
  await migrate(pg, { schema });
  return createPostgresStore({ client: pg, schema });
}

describe.each([
  ['the memory store', memoryStore],
  ['the PostgreSQL store (PGlite)', postgresStore],
])('PATCH pushed down to %s', (_name, fresh) => {
  it('answers as the read path does: statuses, bodies, ETags and lastModified, step by step', async () => {
    const { pushed, read, calls } = await runBoth(fresh, SCENARIO);
    expect(pushed).toEqual(read);
    if (process.env['SHOW_PUSHDOWN'] !== undefined) console.log(JSON.stringify(pushed.map((r) => [(r as { status: number }).status, (r as { etag: string }).etag])), calls);
    const etags = pushed.map((reply) => (reply as { etag: string | null }).etag);
    // POST user, POST group, then the ETag of each step (unchanged keeps W/"2").
    expect(etags.slice(0, 12)).toEqual(['W/"1"', 'W/"1"', 'W/"2"', 'W/"2"', 'W/"3"', 'W/"4"', 'W/"5"', 'W/"6"', null, null, 'W/"7"', 'W/"8"']);
    // The pushed-down side wrote through `assign` and read no user before those writes.
    expect(calls[0]['assign']).toBeGreaterThanOrEqual(12);
    expect(calls[1]['assign'] ?? 0).toBe(0);
    expect(calls[0]['get'] ?? 0).toBeLessThan(calls[1]['get'] ?? 0);
  });

  it('with a request log, still one store call, and the log records the same changes (before and after) as on the read path', async () => {
    const { pushed, read, calls, logged } = await runBoth(fresh, SCENARIO, undefined, true);
    expect(pushed).toEqual(read);
    expect(logged[0]).toEqual(logged[1]);
    // POST user, POST group, and the changing PATCHes of the user (each one change, its before the previous after), then the group's.
    const changes = logged[0] as { operation: string; before?: { meta: { version: string } }; after?: { meta: { version: string } } }[];
    expect(changes.map((change) => [change.operation, change.before?.meta.version, change.after?.meta.version])).toEqual([
      ['create', undefined, 'W/"1"'],
      ['create', undefined, 'W/"1"'],
      ...Array.from({ length: 12 }, (_, index) => index + 1).map((n) => ['patch', `W/"${n}"`, `W/"${n + 1}"`]),
      ['patch', 'W/"1"', 'W/"2"'],
    ]);
    expect(calls[0]['assign']).toBeGreaterThanOrEqual(12);
    expect(calls[0]['get'] ?? 0).toBeLessThan(calls[1]['get'] ?? 0);
  });

  it('keeps limits.maxResourceBytes: the store declines, the read path refuses as it always did', async () => {
    const steps: Step[] = [
      (c, ids) => c.patch(user(ids), patchOf({ op: 'replace', path: 'title', value: 'x'.repeat(900) })),
      (c, ids) => c.patch(user(ids), patchOf({ op: 'replace', path: 'title', value: 'fits' })),
      (c, ids) => c.get(user(ids)),
    ];
    const { pushed, read } = await runBoth(fresh, steps, 1_000);
    expect(pushed).toEqual(read);
    expect((pushed[2] as { status: number }).status).toBe(400);
    expect((pushed[3] as { status: number }).status).toBe(200);
  });
});
