import { getRequestListener } from '@hono/node-server';
import type { ScimHandler } from '@scimkit/core/adapter';
import { createScimRouter } from '@scimkit/express';
import { createScimPlugin } from '@scimkit/fastify';
import { createFetchHandler } from '@scimkit/fetch';
import { createScimMiddleware } from '@scimkit/koa';
import { createNodeHandler } from '@scimkit/node';
import express from 'express';
import Fastify from 'fastify';
import Koa from 'koa';
import { listen, listenFastify } from '../../adapter-support/listen.js';

/** A server on an ephemeral port: SCIM at `/scim/v2`, the token endpoint and JWKS at the root. */
export interface ServedPair {
  readonly origin: string;
  readonly port: number;
  close(): Promise<void>;
}

type Serve = (scim: ScimHandler, tokens: ScimHandler) => Promise<ServedPair>;

async function overNode(listener: Parameters<typeof listen>[0]): Promise<ServedPair> {
  const listening = await listen(listener);
  return { origin: listening.origin, port: listening.port, close: () => listening.close() };
}

/** Every adapter, each serving the SCIM server and the token endpoint side by side on one port, as its docs show. */
export const ADAPTERS_WITH_TOKEN_ENDPOINT: readonly (readonly [string, Serve])[] = [
  [
    '@scimkit/node',
    (scim, tokens) => {
      const scimHandler = createNodeHandler(scim, { basePath: '/scim/v2' });
      const tokenHandler = createNodeHandler(tokens);
      return overNode((req, res) => scimHandler(req, res, () => tokenHandler(req, res)));
    },
  ],
  [
    '@scimkit/express',
    (scim, tokens) => {
      const app = express();
      app.use('/scim/v2', createScimRouter(scim));
      app.use(createScimRouter(tokens));
      return overNode(app);
    },
  ],
  [
    '@scimkit/koa',
    (scim, tokens) => {
      const app = new Koa();
      app.use(createScimMiddleware(scim, { basePath: '/scim/v2' }));
      app.use(createScimMiddleware(tokens, { basePath: '' }));
      return overNode(app.callback());
    },
  ],
  [
    '@scimkit/fastify',
    async (scim, tokens) => {
      const app = Fastify();
      await app.register(createScimPlugin(scim), { prefix: '/scim/v2' });
      await app.register(createScimPlugin(tokens));
      return listenFastify(app);
    },
  ],
  [
    '@scimkit/fetch',
    (scim, tokens) => {
      const scimFetch = createFetchHandler(scim, { basePath: '/scim/v2' });
      const tokenFetch = createFetchHandler(tokens);
      return overNode(getRequestListener((request) => (new URL(request.url).pathname.startsWith('/scim/v2') ? scimFetch(request) : tokenFetch(request))));
    },
  ],
];
