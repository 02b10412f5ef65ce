import type { ScimResponse } from '@scimkit/core';
import { createAdapterPipeline, readRequestBody, type AdapterBodyRead, type AdapterOptions, type RequestBodyOptions, type ScimHandler } from '@scimkit/core/adapter';
import type { Context, Middleware } from 'koa';

/**
 * `basePath`, `maxBodyBytes`, `baseUrl`, `bodyTimeoutMs` and `maxPipelinedRequests`, the same options
 * with the same meaning in every adapter (`@scimkit/core/adapter`). `basePath` defaults to the mount
 * point of the @koa/router route the middleware is given to, else `''` (everything).
 */
export interface ScimMiddlewareOptions extends AdapterOptions {
  /** @deprecated The old name of `basePath`; it goes in the next minor release. */
  readonly prefix?: string | undefined;
}

/**
 * Koa 2/3 middleware serving SCIM under `basePath`; other paths go to `next()`. Uses the raw text a
 * body parser kept (`ctx.request.rawBody`) or what it parsed, and reads the stream itself otherwise.
 */
export function createScimMiddleware(server: ScimHandler, options: ScimMiddlewareOptions = {}): Middleware {
  const basePath = options.basePath ?? options.prefix;
  const pipeline = createAdapterPipeline(server, { ...options, basePath });
  return async (ctx, next) => {
    // Without a basePath, the route's own mount point is where SCIM is served.
    const route = basePath === undefined ? routePrefix(ctx) : '';
    if (!ctx.url.startsWith(route)) return next();
    const response = await pipeline({
      method: ctx.method,
      target: ctx.url.slice(route.length),
      headers: ctx.req.headers,
      scheme: ctx.protocol,
      // The header as received, not Koa's `ctx.host`, which cuts `user@evil` down to `evil`.
      host: rawHost(ctx),
      mountPath: `${(ctx as { mountPath?: string }).mountPath ?? ''}${route}`,
      connection: { request: ctx.req, response: ctx.res },
      readBody: (limits) => body(ctx, limits),
    });
    if (response === undefined) return next();
    write(ctx, response);
  };
}

/** @deprecated Renamed {@link createScimMiddleware}, like every adapter's `create…`; this name goes in the next minor release. */
export const scimMiddleware: typeof createScimMiddleware = createScimMiddleware;

/**
 * The mount point of an @koa/router route such as `/scim/v2/(.*)`, `/scim/v2/:path*` or
 * `/tenants/:tenant/scim/v2/(.*)`: as many leading segments of the request path as the route has
 * before its trailing wildcard (`/tenants/acme/scim/v2`).
 */
function routePrefix(ctx: Context): string {
  const route = (ctx as { routerPath?: unknown }).routerPath;
  if (typeof route !== 'string') return '';
  const depth = route.replace(/(\/?(\(\.\*\)|:\w+(\*|\(\.\*\))|\{\/\*\w*\}|\*\w*))+$/, '').split('/').filter(Boolean).length;
  return depth === 0 ? '' : `/${ctx.path.split('/').filter(Boolean).slice(0, depth).join('/')}`;
}

/** The host the client named, as Koa picks it (`X-Forwarded-Host` behind `app.proxy`, `:authority` on HTTP/2, else `Host`), before Koa's clean-up. */
function rawHost(ctx: Context): string | undefined {
  const forwarded = ctx.app.proxy ? ctx.get('X-Forwarded-Host').split(',', 1)[0]?.trim() : undefined;
  if (forwarded) return forwarded;
  const authority = ctx.req.httpVersionMajor >= 2 ? ctx.get(':authority') : '';
  return authority || ctx.req.headers.host;
}

function body(ctx: Context, limits: RequestBodyOptions): Promise<AdapterBodyRead> | AdapterBodyRead {
  const request = ctx.request as { rawBody?: unknown; body?: unknown };
  if (typeof request.rawBody === 'string') return { kind: 'body', body: request.rawBody || undefined };
  return ctx.req.readableEnded ? { kind: 'body', body: request.body } : readRequestBody(ctx.req, limits);
}

function write(ctx: Context, response: ScimResponse): void {
  ctx.status = response.status;
  ctx.set(response.headers);
  ctx.body = response.body ?? (response.status === 204 || response.status === 304 ? null : '');
}
