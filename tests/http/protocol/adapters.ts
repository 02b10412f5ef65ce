import { createNodeHandler } from '@scimkit/node';
import { createScimRouter } from '@scimkit/express';
import { createScimMiddleware } from '@scimkit/koa';
import type { ScimServer } from '@scimkit/core';
import express from 'express';
import Koa from 'koa';
import { listen } from '../../adapter-support/listen.js';
import type { StartedService } from '../support/service-under-test.js';

/** Serves a SCIM server at `/scim/v2` through one adapter, on an ephemeral port. */
export type ServeScim = (server: ScimServer) => Promise<StartedService>;

async function started(listener: Parameters<typeof listen>[0]): Promise<StartedService> {
  const listening = await listen(listener);
  return { baseUrl: `${listening.origin}/scim/v2`, close: () => listening.close() };
}

/** Every adapter, each mounting the server the way its docs show. */
export const ADAPTERS: readonly (readonly [string, ServeScim])[] = [
  ['@scimkit/node', (server) => started(createNodeHandler(server, { basePath: '/scim/v2' }))],
  [
    '@scimkit/express',
    (server) => {
      const app = express();
      app.use('/scim/v2', createScimRouter(server));
      return started(app);
    },
  ],
  [
    '@scimkit/koa',
    (server) => {
      const app = new Koa();
      app.use(createScimMiddleware(server, { basePath: '/scim/v2' }));
      return started(app.callback());
    },
  ],
];
