import type { ClientStore, OAuthClient } from './oauth-client.js';

/** Clients in memory: for tests and for a server whose clients come from its configuration. */
export function createMemoryClientStore(clients: readonly OAuthClient[] = []): ClientStore {
  const byId = new Map<string, OAuthClient>(clients.map((client) => [client.clientId, Object.freeze({ ...client })]));
  return {
    get: async (clientId) => byId.get(clientId),
    save: async (client) => void byId.set(client.clientId, Object.freeze({ ...client })),
    list: async () => [...byId.values()],
  };
}
