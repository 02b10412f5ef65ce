import { bearerToken, createMemoryStore, createScimServer, userResourceType, type ScimStore } from '@scimkit/core';
import { createScimRouter } from '@scimkit/express';
import express, { type Express } from 'express';
import { AppUserTable } from './app-user-table.js';

export interface AppOptions {
  /** The token the identity provider sends as `Authorization: Bearer <token>`. */
  readonly scimToken: string;
  /** Where SCIM keeps users; the in-memory store by default. */
  readonly store?: ScimStore;
}

/** The application: its own routes, and SCIM for the identity provider at /scim/v2. */
export function createApp(options: AppOptions): { app: Express; users: AppUserTable } {
  const users = new AppUserTable();
  const scim = createScimServer({
    resourceTypes: [userResourceType],
    store: options.store ?? createMemoryStore(),
    // `Authorization: Bearer <token>`, compared in constant time; also advertises the scheme.
    ...bearerToken({ tokens: [{ token: options.scimToken, principal: 'identity-provider' }] }),
    onChange: users.sync,
  });

  const app = express();
  app.disable('x-powered-by');
  // SCIM goes before any body parser: createScimRouter reads its own body, so a malformed one gets a
  // SCIM error (400 invalidSyntax) instead of the parser's HTML page. It also works behind one.
  app.use('/scim/v2', createScimRouter(scim));

  // The app's own routes.
  app.use(express.json());
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/app/users', (_req, res) => {
    res.json(users.list());
  });
  return { app, users };
}
