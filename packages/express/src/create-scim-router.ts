import type { ScimResponse } from '@scimkit/core';
import { createAdapterPipeline, readRequestBody, type AdapterBodyRead, type AdapterOptions, type RequestBodyOptions, type ScimHandler } from '@scimkit/core/adapter';
import type { Request, RequestHandler, Response } from 'express';
import { configuredMountPaths } from './configured-mount-paths.js';

/**
 * `basePath` (default `''`: the path given to `app.use()`), `maxBodyBytes`, `baseUrl`,
 * `bodyTimeoutMs` and `maxPipelinedRequests`, the same options with the same meaning in every
 * adapter (`@scimkit/core/adapter`).
 */
export type ScimRouterOptions = AdapterOptions;

/**
 * Express 4/5 middleware serving SCIM at its mount path: `app.use('/scim/v2', createScimRouter(server))`
 * (or `app.use(createScimRouter(server, { basePath: '/scim/v2' }))`); requests outside it go to `next()`.
 * Reads the body itself unless a body parser already consumed the stream, in which case it passes
 * the raw body the parser kept (`req.rawBody`), else what it left in `req.body`.
 */
export function createScimRouter(server: ScimHandler, options: ScimRouterOptions = {}): RequestHandler {
  const pipeline = createAdapterPipeline(server, options);
  const middleware: RequestHandler = (req, res, next) => {
    // RFC 3986 §6.2.2.1: paths are case-sensitive. Express matches mount paths case-insensitively;
    // a spelling other than the application's (`/SCIM/V2` for `/scim/v2`) is not ours, as in the
    // Node and Koa adapters, rather than echoed into every Location. (The paths are read from the
    // routing table of `req.app`: a sub-application's own mount point comes before them.)
    const mounts = configuredMountPaths(req.app, middleware);
    if (mounts.length > 0 && !mounts.some((mount) => req.baseUrl.endsWith(mount))) return next();
    void pipeline({
      method: req.method,
      target: req.url,
      headers: req.headers,
      scheme: req.protocol,
      host: req.headers.host,
      mountPath: req.baseUrl,
      connection: { request: req, response: res },
      readBody: (limits) => body(req, limits),
    }).then((response) => (response === undefined ? next() : write(res, response)));
  };
  return middleware;
}

/**
 * @deprecated Renamed {@link createScimRouter} (it returns a middleware, not an Express `Router`);
 * this name goes in the next minor release.
 */
export const scimRouter: typeof createScimRouter = createScimRouter;

/**
 * The stream, unless a body parser read it whole already (`readableEnded`): then the raw body the
 * parser kept (`req.rawBody`, e.g. from `express.json({ verify })`), else what it parsed.
 */
function body(req: Request, limits: RequestBodyOptions): Promise<AdapterBodyRead> | AdapterBodyRead {
  if (!req.readableEnded) return readRequestBody(req, limits);
  const raw = (req as { rawBody?: unknown }).rawBody;
  if (typeof raw === 'string' || raw instanceof Uint8Array) return { kind: 'body', body: raw.length === 0 ? undefined : raw };
  return { kind: 'body', body: req.body as unknown };
}

function write(res: Response, response: ScimResponse): void {
  if (res.headersSent || res.destroyed) return;
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  res.end(response.body);
}
