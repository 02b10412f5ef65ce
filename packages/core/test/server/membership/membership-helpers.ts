import {
  createMemoryStore,
  createScimServer,
  groupResourceType,
  userResourceType,
  type ScimResource,
  type ScimServer,
  type ScimServerConfig,
  type ScimStore,
} from '../../../src/index.js';
import { call, type Reply } from '../helpers.js';

export const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const BASE = 'https://scim.example.com/v2';

/** `memory` as a store without `capabilities.references`: the core removes references to a deleted resource itself. */
export function withoutReferences(memory: ScimStore = createMemoryStore()): ScimStore {
  return {
    capabilities: { ...memory.capabilities, references: false },
    create: (...args) => memory.create(...args),
    get: (...args) => memory.get(...args),
    replace: (...args) => memory.replace(...args),
    query: (...args) => memory.query(...args),
    delete: (type, id, expected, ctx) => memory.delete(type, id, expected, ctx === undefined ? undefined : { ...ctx, references: [] }),
  };
}

/**
 * The memory store as a store without `capabilities.immutableResults`: it hands out one deep copy
 * of each group, the same object on every read, and changes it in place after every write (its
 * arrays emptied and refilled), as a store that reuses its objects may. The server must keep nothing
 * derived from them.
 */
export function changingCopies(memory: ScimStore): ScimStore {
  const handed = new Map<string, Record<string, unknown>>();
  const hand = (type: string, resource: ScimResource | undefined): ScimResource | undefined => {
    if (resource === undefined || type !== 'Group') return resource;
    const held = handed.get(resource.id);
    if (held !== undefined) return held as ScimResource;
    const copy = structuredClone(resource) as Record<string, unknown>;
    handed.set(resource.id, copy);
    return copy as ScimResource;
  };
  const refresh = async (): Promise<void> => {
    for (const [id, copy] of handed) {
      const now = (await memory.get('Group', id)) as Record<string, unknown> | undefined;
      for (const key of Object.keys(now ?? {})) {
        const value = structuredClone(now?.[key]);
        const held = copy[key];
        if (Array.isArray(held) && Array.isArray(value)) held.splice(0, held.length, ...(value as unknown[]));
        else copy[key] = value;
      }
    }
  };
  return {
    capabilities: { ...memory.capabilities, immutableResults: false },
    create: (...args) => memory.create(...args),
    get: async (type, id, ctx) => hand(type, await memory.get(type, id, ctx)),
    query: async (type, query, ctx) => {
      const found = await memory.query(type, query, ctx);
      return 'resources' in found ? { ...found, resources: found.resources.map((r) => hand(type, r) as ScimResource) } : found;
    },
    replace: async (...args) => {
      const written = await memory.replace(...args);
      await refresh();
      return written.ok ? { ...written, resource: hand(args[0], written.resource) as ScimResource } : written;
    },
    delete: async (...args) => {
      const deleted = await memory.delete(...args);
      await refresh();
      return deleted;
    },
  };
}

/** A Users + Groups server over `store` (a fresh memory store by default). */
export function groupsServer(overrides: Partial<ScimServerConfig> = {}, store: ScimStore = createMemoryStore()): ScimServer {
  return createScimServer({ resourceTypes: [userResourceType, groupResourceType], store, baseUrl: BASE, logger: { log: () => undefined }, ...overrides });
}

export interface Client {
  readonly server: ScimServer;
  send(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  user(userName: string, extra?: Record<string, unknown>): Promise<string>;
  group(displayName: string, members?: unknown[]): Promise<string>;
  patch(path: string, ...operations: unknown[]): Promise<Reply>;
}

export function client(server: ScimServer): Client {
  const send = (method: string, target: string, body?: unknown, headers: Record<string, string> = {}) => {
    const [path = '', search = ''] = target.split('?', 2);
    const query = Object.fromEntries(new URLSearchParams(search));
    return call(server, { method, path, query, headers: { 'content-type': 'application/scim+json', ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  };
  const created = async (path: string, body: unknown): Promise<string> => {
    const reply = await send('POST', path, body);
    if (reply.status !== 201) throw new Error(`POST ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body['id'] as string;
  };
  return {
    server,
    send,
    user: (userName, extra = {}) => created('/Users', { userName, ...extra }),
    group: (displayName, members) => created('/Groups', { schemas: [GROUP], displayName, ...(members === undefined ? {} : { members }) }),
    patch: (path, ...operations) => send('PATCH', path, { schemas: [PATCH_OP], Operations: operations }),
  };
}
