import {
  admitBeforeBody,
  bodyLimit,
  createConnectionQueue,
  mountBaseUrl,
  parseQuery,
  readRequestBody,
  scimErrorResponse,
  tooManyPipelinedResponse,
  type RequestBodyOptions,
  type RequestBodyRead,
  type ScimHandler,
  type ScimRequest,
  type ScimResponse,
} from '@scimkit/core';
import type { Context, Middleware } from 'koa';

export interface ScimMiddlewareOptions {
  /** Path SCIM is served under (`/scim/v2`). Default: the mount point of the @koa/router route, else `''` (everything). */
  readonly prefix?: string;
  /** Largest body read from the request stream, in bytes (default: the server's `limits.maxBodyBytes`, 1 MiB); a larger one is a 413. */
  readonly maxBodyBytes?: number;
  /** Public URL of the mount point, when the protocol and Host seen here are not the public ones. */
  readonly baseUrl?: string;
  /** Longest wait for the request body this middleware reads, in ms; a client still sending after it gets a 408 and the connection closes. Default 30 000; 0 turns it off. */
  readonly bodyTimeoutMs?: number;
  /** Pipelined requests that may wait on one connection behind the one being answered (answered one at a time); one more is a 503 and the connection closes. Default 16. */
  readonly maxPipelinedRequests?: number;
}

/**
 * Koa 2/3 middleware serving SCIM under `prefix`; other paths go to `next()`. Uses the raw text a
 * body parser kept (`ctx.request.rawBody`) or what it parsed, and reads the stream itself otherwise.
 */
export function scimMiddleware(server: ScimHandler, options: ScimMiddlewareOptions = {}): Middleware {
  const limits = { maxBytes: bodyLimit(server, options.maxBodyBytes), timeoutMs: options.bodyTimeoutMs };
  const connections = createConnectionQueue(options.maxPipelinedRequests);
  const fixedPrefix = options.prefix === undefined ? undefined : withoutTrailingSlash(options.prefix);
  return async (ctx, next) => {
    const prefix = fixedPrefix ?? routePrefix(ctx);
    const path = ctx.path === prefix ? '/' : ctx.path.startsWith(`${prefix}/`) ? ctx.path.slice(prefix.length) : undefined;
    if (path === undefined) return next();
    // Issue 14 #4: a connection's pipelined requests one at a time, the next once the previous response reached the socket.
    const admitted = await new Promise<boolean>((resolve) => connections.enter(ctx.req, ctx.res, () => resolve(true), () => resolve(false)));
    if (!admitted) return write(ctx, tooManyPipelinedResponse());
    const query = parseQuery(ctx.url);
    // The pre-body stage (a rate limit): refused before a byte of the body is read.
    const refused = await admitBeforeBody(server, { method: ctx.method, path, query, headers: ctx.req.headers });
    if (refused !== undefined) return write(ctx, refused);
    const read = await body(ctx, limits);
    if (read.kind === 'aborted') return;
    if (read.kind === 'refused') return write(ctx, read.response);
    // RFC 9112 §3.2: an invalid Host (or X-Forwarded-Host, behind app.proxy) is a 400, never echoed
    // into meta.location; a missing or empty one is localhost. The header as received is checked, not
    // Koa's `ctx.host`, which cuts `user@evil` down to `evil`.
    const mountPath = (ctx as { mountPath?: string }).mountPath ?? '';
    const mount = mountBaseUrl(ctx.protocol, rawHost(ctx), `${mountPath}${prefix}`);
    if (!mount.ok) return write(ctx, scimErrorResponse(mount.error));
    const request: ScimRequest = {
      method: ctx.method,
      path,
      query,
      headers: ctx.req.headers,
      baseUrl: options.baseUrl ?? mount.value,
      ...(read.body === undefined ? {} : { body: read.body }),
    };
    write(ctx, await server.handle(request));
  };
}

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

function withoutTrailingSlash(path: string): string {
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

function body(ctx: Context, limits: RequestBodyOptions): Promise<RequestBodyRead> | { readonly kind: 'body'; readonly body: unknown } {
  const request = ctx.request as { rawBody?: unknown; body?: unknown };
  if (typeof request.rawBody === 'string') return { kind: 'body', body: request.rawBody || undefined };
  return ctx.req.readableEnded ? { kind: 'body', body: request.body } : readRequestBody(ctx.req, limits);
}

function write(ctx: Context, response: ScimResponse): void {
  ctx.status = response.status;
  ctx.set(response.headers);
  ctx.body = response.body ?? (response.status === 204 || response.status === 304 ? null : '');
}
