import {
  createMemoryStore,
  createScimServer,
  groupResourceType,
  userResourceType,
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
