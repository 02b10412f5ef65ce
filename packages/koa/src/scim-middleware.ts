import { DEFAULT_LIMITS, type ScimRequest, type ScimResponse, type ScimServer } from '@scimkit/core';
import type { Context, Middleware } from 'koa';
import { bodyTimedOut } from './body-timed-out.js';
import { payloadTooLarge } from './payload-too-large.js';
import { queryParams } from './query-params.js';
import { readBody, type BodyRead } from './read-body.js';

/** What `createScimServer()` returns, or anything else with its `handle()`. */
export type ScimHandler = Pick<ScimServer, 'handle'> & { readonly config?: Pick<ScimServer['config'], 'limits'> };

export interface ScimMiddlewareOptions {
  /** Path SCIM is served under (`/scim/v2`). Default: the mount point of the @koa/router route, else `''` (everything). */
  readonly prefix?: string;
  /** Largest body read from the request stream, in bytes (default: the server's `limits.maxBodyBytes`, 1 MiB); a larger one is a 413. */
  readonly maxBodyBytes?: number;
  /** Public URL of the mount point, when the protocol and Host seen here are not the public ones. */
  readonly baseUrl?: string;
  /** Longest wait for the request body this middleware reads, in ms; a client still sending after it gets a 408 and the connection closes. Default 30 000; 0 turns it off. */
  readonly bodyTimeoutMs?: number;
}

/**
 * Koa 2/3 middleware serving SCIM under `prefix`; other paths go to `next()`. Uses the raw text a
 * body parser kept (`ctx.request.rawBody`) or what it parsed, and reads the stream itself otherwise.
 */
export function scimMiddleware(server: ScimHandler, options: ScimMiddlewareOptions = {}): Middleware {
  const limit = options.maxBodyBytes ?? server.config?.limits?.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes;
  const timeoutMs = options.bodyTimeoutMs ?? 30_000;
  const fixedPrefix = options.prefix === undefined ? undefined : withoutTrailingSlash(options.prefix);
  return async (ctx, next) => {
    const prefix = fixedPrefix ?? routePrefix(ctx);
    const path = ctx.path === prefix ? '/' : ctx.path.startsWith(`${prefix}/`) ? ctx.path.slice(prefix.length) : undefined;
    if (path === undefined) return next();
    const read = await body(ctx, limit, timeoutMs);
    if (read.kind === 'aborted') return;
    const mountPath = (ctx as { mountPath?: string }).mountPath ?? '';
    const baseUrl = options.baseUrl ?? (ctx.host === '' ? undefined : `${ctx.protocol}://${ctx.host}${mountPath}${prefix}`);
    const request: ScimRequest = {
      method: ctx.method,
      path,
      query: queryParams(ctx.url),
      headers: ctx.req.headers,
      ...(baseUrl === undefined ? {} : { baseUrl }),
      ...(read.kind === 'body' && read.body !== undefined ? { body: read.body } : {}),
    };
    write(ctx, read.kind === 'tooLarge' ? payloadTooLarge(limit) : read.kind === 'timeout' ? bodyTimedOut() : await server.handle(request));
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

function withoutTrailingSlash(path: string): string {
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

function body(ctx: Context, limit: number, timeoutMs: number): Promise<BodyRead> | BodyRead {
  const request = ctx.request as { rawBody?: unknown; body?: unknown };
  if (typeof request.rawBody === 'string') return { kind: 'body', body: request.rawBody || undefined };
  return ctx.req.readableEnded ? { kind: 'body', body: request.body } : readBody(ctx.req, limit, timeoutMs);
}

function write(ctx: Context, response: ScimResponse): void {
  ctx.status = response.status;
  ctx.set(response.headers);
  ctx.body = response.body ?? (response.status === 204 || response.status === 304 ? null : '');
}
