import { createMemoryStore, createScimServer, groupResourceType, userResourceType, type ScimServer, type ScimServerConfig, type ScimStore } from '@scimkit/core';

/** Bearer tokens of the protocol suite: `Bearer user:<userName>` acts as that user (for /Me), `Bearer admin` as the provisioning client. */
export const ADMIN = { authorization: 'Bearer admin' };
export const asUser = (userName: string): Record<string, string> => ({ authorization: `Bearer user:${userName}` });

/**
 * The server the protocol suite runs against over every adapter: users and groups with everything
 * issue 11 adds turned on (Bulk with small limits, /Me, cursors, meta-schemas).
 */
export function createProtocolServer(overrides: Partial<ScimServerConfig> = {}, store: ScimStore = createMemoryStore()): ScimServer {
  return createScimServer({
    resourceTypes: [userResourceType, groupResourceType],
    store,
    logger: { log: () => undefined },
    limits: { maxBodyBytes: 64 * 1024 },
    bulk: { maxOperations: 20, maxPayloadSize: 16 * 1024 },
    pagination: { cursorTimeout: 600 },
    discovery: { metaSchemas: true },
    authenticate: (request) => {
      const header = request.headers?.['authorization'];
      const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : '';
      if (token === 'admin') return { ok: true, principal: { admin: true } };
      if (token.startsWith('user:')) return { ok: true, principal: { userName: token.slice(5) } };
      return { ok: false };
    },
    // /Me: the user whose userName the token names (RFC 7644 §3.11), found with a filter on the store.
    me: async (principal) => {
      const userName = (principal as { userName?: string }).userName;
      if (userName === undefined) return undefined;
      const found = await store.query('User', { semantics: { matches: (resource) => resource['userName'] === userName, attribute: () => undefined } });
      const user = found.resources.find((resource) => resource['userName'] === userName);
      return user === undefined ? undefined : { resourceType: 'User', id: user.id };
    },
    ...overrides,
  });
}
