import { bearerToken, createMemoryStore, createScimServer, userResourceType, type BearerTokenAuthentication, type ScimStore } from '@scimkit/core';
import { createScimRouter } from '@scimkit/express';
import express, { type Express } from 'express';
import { AppUserTable } from './app-user-table.js';

/** One customer's token: each customer's identity provider gets its own. */
export interface CustomerToken {
  readonly tenant: string;
  readonly token: string;
}

export interface TenantsAppOptions {
  /** One token per customer; a customer may have two while it rotates (old and new both valid). */
  readonly tokens?: readonly CustomerToken[];
  /** Or another way to authenticate that names the tenant, such as `jwtAuthentication(…)`. */
  readonly authentication?: BearerTokenAuthentication;
  /** Where SCIM keeps users of every tenant; the in-memory store by default. */
  readonly store?: ScimStore;
}

/**
 * A SaaS app serving SCIM for many customers at one URL, /scim/v2: the bearer token says which
 * customer (tenant) a request is for; each customer's users stay apart in the store and in the
 * app's own per-customer users table.
 */
export function createTenantsApp(options: TenantsAppOptions): { app: Express; usersOf: (tenant: string) => AppUserTable } {
  const tables = new Map<string, AppUserTable>();
  const usersOf = (tenant: string): AppUserTable => {
    let table = tables.get(tenant);
    if (table === undefined) tables.set(tenant, (table = new AppUserTable()));
    return table;
  };
  const authentication =
    options.authentication ??
    bearerToken({ tokens: (options.tokens ?? []).map(({ tenant, token }) => ({ token, tenant, principal: `${tenant} identity provider` })) });
  const scim = createScimServer({
    resourceTypes: [userResourceType],
    store: options.store ?? createMemoryStore(),
    ...authentication,
    // Every change event names its tenant: each customer's table gets its own users only.
    onChange: (event) => usersOf(event.tenant ?? '').sync(event),
  });

  const app = express();
  app.disable('x-powered-by');
  app.use('/scim/v2', createScimRouter(scim));
  app.get('/app/:tenant/users', (req, res) => {
    res.json(usersOf(req.params.tenant).list());
  });
  return { app, usersOf };
}
