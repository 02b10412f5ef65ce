import { describe, expect, it } from 'vitest';
import { createScimServer, type ScimServer } from '../server/create-scim-server.js';
import { groupResourceType, userResourceType } from '../schema/builtin/resource-types.js';
import { URN } from '../schema/urns.js';
import type { StoreProfile } from './store-profile.js';
import type { ScimStore } from '../store/scim-store.js';
import { StoreUnavailableError } from '../store/store-unavailable.js';

/**
 * A store whose backend can be made to fail, for the "unavailable" cases of the kit: after
 * `failAt(n)`, the n-th step the store takes against its backend from then on (a statement, a round
 * trip) fails as a lost connection does, until `heal()`. The store must then reject that call
 * with a `StoreUnavailableError` and keep nothing of it.
 */
export interface FaultyStore {
  readonly store: ScimStore;
  failAt(step: number): void;
  heal(): void;
}

/** Without a store-provided {@link FaultyStore}: failures injected between the server and the store, one store call failing. */
export function faultyAtBoundary(store: ScimStore): FaultyStore {
  let countdown: number | undefined;
  const step = <T>(call: () => Promise<T>): Promise<T> => {
    if (countdown !== undefined && --countdown === 0) {
      countdown = undefined;
      return Promise.reject(new StoreUnavailableError('the connection to the database was lost (injected)', { retryAfterSeconds: 2 }));
    }
    return call();
  };
  return {
    store: {
      ...(store.capabilities === undefined ? {} : { capabilities: store.capabilities }),
      create: (type, resource, ctx) => step(() => store.create(type, resource, ctx)),
      get: (type, id, ctx) => step(() => store.get(type, id, ctx)),
      replace: (type, id, resource, expected, ctx) => step(() => store.replace(type, id, resource, expected, ctx)),
      ...(store.assign === undefined ? {} : { assign: (type, id, assignment, ctx) => step(() => (store.assign as NonNullable<ScimStore['assign']>)(type, id, assignment, ctx)) }),
      delete: (type, id, expected, ctx) => step(() => store.delete(type, id, expected, ctx)),
      query: (type, query, ctx) => step(() => store.query(type, query, ctx)),
    },
    failAt: (n) => void (countdown = n),
    heal: () => void (countdown = undefined),
  };
}

interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: any;
}

async function send(server: ScimServer, method: string, path: string, body?: unknown): Promise<Reply> {
  const response = await server.handle({
    method,
    path,
    headers: body === undefined ? {} : { 'content-type': 'application/scim+json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, headers: response.headers, body: response.body === undefined ? undefined : JSON.parse(response.body) };
}

const patch = (...operations: unknown[]) => ({ schemas: [URN.patchOp], Operations: operations });
let serial = 0;
const fresh = (prefix: string) => `${prefix}-${++serial}-${globalThis.crypto.randomUUID().slice(0, 8)}`;

/** One write through the server, and what must read back the same when it is refused. */
interface Scenario {
  readonly name: string;
  /** Atomic only when the store removes references itself (`capabilities.references`); else the core's cascade follows the delete. */
  readonly needsReferences?: boolean;
  /** Needs a Group resource type (a profile may have none). */
  readonly needsGroups?: boolean;
  /** Creates what the write needs (with the backend healthy); returns the write and the reads that must not change when it fails. */
  prepare(server: ScimServer, patchPath: string): Promise<{ write: () => Promise<Reply>; reads: readonly string[] }>;
}

const SCENARIOS: readonly Scenario[] = [
  {
    name: 'a create (with its unique userName)',
    prepare: async (server) => {
      const userName = `${fresh('unavailable')}@example.com`;
      return {
        write: () => send(server, 'POST', '/Users', { schemas: [URN.user], userName }),
        reads: [`/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`],
      };
    },
  },
  {
    name: 'a PATCH of a user',
    prepare: async (server, patchPath) => {
      const created = await send(server, 'POST', '/Users', { schemas: [URN.user], userName: `${fresh('patched')}@example.com` });
      const value = `${fresh('changed')}@example.com`;
      return { write: () => send(server, 'PATCH', `/Users/${created.body.id}`, patch({ op: 'replace', path: patchPath, value })), reads: [`/Users/${created.body.id}`] };
    },
  },
  {
    name: 'a member added to a group',
    needsGroups: true,
    prepare: async (server) => {
      const member = await send(server, 'POST', '/Users', { schemas: [URN.user], userName: `${fresh('member')}@example.com` });
      const group = await send(server, 'POST', '/Groups', { schemas: [URN.group], displayName: fresh('group') });
      return {
        write: () => send(server, 'PATCH', `/Groups/${group.body.id}`, patch({ op: 'add', path: 'members', value: [{ value: member.body.id }] })),
        reads: [`/Groups/${group.body.id}`, `/Users/${member.body.id}`],
      };
    },
  },
  {
    name: 'a delete of a user that is a member (with its reference cascade)',
    needsReferences: true,
    needsGroups: true,
    prepare: async (server) => {
      const member = await send(server, 'POST', '/Users', { schemas: [URN.user], userName: `${fresh('leaver')}@example.com` });
      const group = await send(server, 'POST', '/Groups', { schemas: [URN.group], displayName: fresh('team'), members: [{ value: member.body.id }] });
      return { write: () => send(server, 'DELETE', `/Users/${member.body.id}`), reads: [`/Users/${member.body.id}`, `/Groups/${group.body.id}`] };
    },
  },
];

/**
 * A store that cannot reach its backend says so with `StoreUnavailableError`: the server answers
 * 503 with `Retry-After` and a SCIM error body, and the interrupted write leaves nothing behind.
 * Each scenario runs once per step of the write (the first step failing, then the second, …) until
 * the write gets through. After every refusal the write is absent (the resources it touches read
 * back unchanged, and the same write retried succeeds: a create's unique userName was not kept) or
 * whole (the failure came after it was stored: retried, it changes nothing more); never half.
 */
export function describeUnavailable(faulty: () => Promise<FaultyStore>, atBoundary: boolean, references: boolean, profile?: StoreProfile): void {
  // A store with a profile is served with its own resource types and schemas; the writes touch userName and members only, which every such store keeps.
  const groups = profile === undefined || profile.group !== undefined;
  // A top-level string attribute the store keeps on its own (not in one place with another).
  const twinned = new Set((profile?.sameValue ?? []).flat());
  const patchPath =
    profile === undefined
      ? 'title'
      : (profile.declared.find((path) => /^[A-Za-z]\w*$/.test(path) && path !== 'userName' && !twinned.has(path) && profile.user.facts({ attr: path })?.type === 'string') ?? 'userName');
  const served = (store: ScimStore): ScimServer =>
    profile === undefined
      ? createScimServer({ resourceTypes: [userResourceType, groupResourceType], store, logger: { log: () => undefined } })
      : createScimServer({
          resourceTypes: [profile.user, ...(profile.group === undefined ? [] : [profile.group])].map((model) => ({ ...model.definition, schemaExtensions: [...model.definition.schemaExtensions] })),
          schemas: [profile.user, ...(profile.group === undefined ? [] : [profile.group])].flatMap((model) => [model.core, ...model.extensions.map((e) => e.schema)]),
          store,
          logger: { log: () => undefined },
        });
  describe(`store unavailable (${atBoundary ? 'injected between server and store' : "injected in the store's backend"})`, () => {
    for (const scenario of SCENARIOS.filter((s) => (references || s.needsReferences !== true) && (groups || s.needsGroups !== true))) {
      it(`${scenario.name}: 503 with Retry-After at every step, nothing half-written`, async () => {
        const { store, failAt, heal } = await faulty();
        const server = served(store);
        let refused = 0;
        for (let step = 1; step <= 200; step++) {
          heal();
          const { write, reads } = await scenario.prepare(server, patchPath);
          const read = () => Promise.all(reads.map(async (path) => ({ path, ...(await send(server, 'GET', path)), headers: undefined })));
          const before = await read();
          failAt(step);
          const reply = await write();
          heal();
          if (reply.status < 300) {
            // Past the last step: the write went through whole.
            expect(refused, 'no step of the write was refused: the faults never reached the store').toBeGreaterThan(0);
            return;
          }
          refused++;
          expect(reply.status, JSON.stringify(reply.body)).toBe(503);
          expect(Number(reply.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
          expect(reply.body).toMatchObject({ schemas: [URN.error], status: '503' });
          const middle = await read();
          const retried = await write();
          if (JSON.stringify(middle) === JSON.stringify(before)) {
            // Nothing of it was kept (a create's unique userName is free again): the same write, retried, succeeds.
            expect(retried.status, `retried after a failure at step ${step}: ${JSON.stringify(retried.body)}`).toBeLessThan(300);
          } else {
            // The failure came after the write was stored (a read for the response): it is there whole,
            // so the write retried changes nothing more (it is a no-op, a 404 or a 409).
            expect([200, 204, 404, 409], `retried after a failure at step ${step}: ${JSON.stringify(retried.body)}`).toContain(retried.status);
            expect(await read(), `after a failure at step ${step}, the write is either absent or whole`).toEqual(middle);
          }
        }
        throw new Error('the write never got through: does heal() stop the failures?');
      });
    }
  });
}
