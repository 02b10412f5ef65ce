import Router from '@koa/router';
import { bearerToken, createMemoryStore, createScimServer, type ScimStore } from '@scimkit/core';
import { createScimMiddleware } from '@scimkit/koa';
import Koa from 'koa';
import { appUserExtension, appUserResourceType } from './app-user-extension.js';
import { AppUserTable } from './app-user-table.js';

export interface AppOptions {
  /** The token the identity provider sends as `Authorization: Bearer <token>`. */
  readonly scimToken: string;
  /** Where SCIM keeps users; the in-memory store by default. */
  readonly store?: ScimStore;
}

/** The application: its own routes, and SCIM for the identity provider at /scim/v2. */
export function createApp(options: AppOptions): { app: Koa; users: AppUserTable } {
  const users = new AppUserTable();
  const scim = createScimServer({
    resourceTypes: [appUserResourceType],
    schemas: [appUserExtension],
    store: options.store ?? createMemoryStore(),
    // `Authorization: Bearer <token>`, compared in constant time; also advertises the scheme.
    ...bearerToken({ tokens: [{ token: options.scimToken, principal: 'identity-provider' }] }),
    onChange: users.sync,
  });

  const router = new Router();
  // Every method on /scim/v2 and below (@koa/router 14+ syntax; on 13: ['/scim/v2', '/scim/v2/(.*)']);
  // the middleware takes /scim/v2 from the route as its basePath.
  router.all('/scim/v2{/*path}', createScimMiddleware(scim));
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/app/users', (ctx) => {
    ctx.body = users.list();
  });

  const app = new Koa();
  app.use(router.routes());
  return { app, users };
}
