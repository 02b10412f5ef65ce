import { getRequestListener } from '@hono/node-server';
import type { AdapterOptions, ScimHandler } from '@scimkit/core/adapter';
import { createScimRouter } from '@scimkit/express';
import { createScimPlugin } from '@scimkit/fastify';
import { createFetchHandler } from '@scimkit/fetch';
import { createScimMiddleware } from '@scimkit/koa';
import { createNodeHandler } from '@scimkit/node';
import express from 'express';
import Fastify from 'fastify';
import Koa from 'koa';
import { listen, listenFastify, type Listening } from './listen.js';

/**
 * Serves `handler` through one adapter, mounted at the server's root with the given options (so
 * `basePath` is the adapter's own), on an ephemeral port of 127.0.0.1.
 */
export type ServeThrough = (handler: ScimHandler, options: AdapterOptions) => Promise<Listening>;

/** The five adapters, each mounted the plain way its docs show, with the same options. */
export const FIVE_ADAPTERS: readonly (readonly [string, ServeThrough])[] = [
  ['@scimkit/node', (handler, options) => listen(createNodeHandler(handler, options))],
  [
    '@scimkit/express',
    (handler, options) => {
      const app = express();
      app.use(createScimRouter(handler, options));
      return listen(app);
    },
  ],
  [
    '@scimkit/koa',
    (handler, options) => {
      const app = new Koa();
      // A client gone mid-body is expected here: not Koa's to print.
      app.silent = true;
      app.use(createScimMiddleware(handler, options));
      return listen(app.callback());
    },
  ],
  [
    '@scimkit/fastify',
    async (handler, options) => {
      const app = Fastify();
      await app.register(createScimPlugin(handler, options));
      return listenFastify(app);
    },
  ],
  ['@scimkit/fetch', (handler, options) => listen(getRequestListener(createFetchHandler(handler, options)))],
];
