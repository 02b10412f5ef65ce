import {
  admitBeforeBody,
  bodyLimit,
  createConnectionQueue,
  mountBaseUrl,
  parseQuery,
  readRequestBody,
  scimErrorResponse,
  tooManyPipelinedResponse,
  type RequestBodyRead,
  type ScimHandler,
  type ScimRequest,
  type ScimResponse,
} from '@scimkit/core';
import type { Request, RequestHandler, Response } from 'express';
import { configuredMountPaths } from './configured-mount-paths.js';

export interface ScimRouterOptions {
  /** Largest body read from the request stream, in bytes (default: the server's `limits.maxBodyBytes`, 1 MiB); a larger one is a 413. */
  readonly maxBodyBytes?: number;
  /** Public URL of the mount point, when the protocol and Host seen here are not the public ones. */
  readonly baseUrl?: string;
  /** Longest wait for the request body this router reads, in ms; a client still sending after it gets a 408 and the connection closes. Default 30 000; 0 turns it off. */
  readonly bodyTimeoutMs?: number;
  /** Pipelined requests that may wait on one connection behind the one being answered (answered one at a time); one more is a 503 and the connection closes. Default 16. */
  readonly maxPipelinedRequests?: number;
}

/**
 * Express 4/5 middleware serving SCIM at its mount path: `app.use('/scim/v2', scimRouter(server))`.
 * Reads the body itself unless a body parser already consumed the stream, in which case it passes
 * the raw body the parser kept (`req.rawBody`), else what it left in `req.body`.
 */
export function scimRouter(server: ScimHandler, options: ScimRouterOptions = {}): RequestHandler {
  const limits = { maxBytes: bodyLimit(server, options.maxBodyBytes), timeoutMs: options.bodyTimeoutMs };
  const connections = createConnectionQueue(options.maxPipelinedRequests);
  const middleware: RequestHandler = (req, res, next) => {
    // RFC 3986 §6.2.2.1: paths are case-sensitive. Express matches mount paths case-insensitively;
    // a spelling other than the application's (`/SCIM/V2` for `/scim/v2`) is not ours, as in the
    // Node and Koa adapters, rather than echoed into every Location. (The paths are read from the
    // routing table of `req.app`: a sub-application's own mount point comes before them.)
    const mounts = configuredMountPaths(req.app, middleware);
    if (mounts.length > 0 && !mounts.some((mount) => req.baseUrl.endsWith(mount))) return next();
    // Issue 14 #4: a connection's pipelined requests one at a time, the next once the previous response reached the socket.
    connections.enter(req, res, () => void serve(req, res).catch(next), () => write(res, tooManyPipelinedResponse()));
  };
  return middleware;

  async function serve(req: Request, res: Response): Promise<void> {
    const query = parseQuery(req.originalUrl);
    // The pre-body stage (a rate limit): refused before a byte of the body is read.
    const refused = await admitBeforeBody(server, { method: req.method, path: req.path, query, headers: req.headers });
    if (refused !== undefined) return write(res, refused);
    const read = await body(req);
    if (read.kind === 'aborted') return;
    if (read.kind === 'refused') return write(res, read.response);
    // RFC 9112 §3.2: an invalid Host header is a 400, never echoed into meta.location; a missing one is localhost.
    const mount = mountBaseUrl(req.protocol, req.headers.host, req.baseUrl);
    if (!mount.ok) return write(res, scimErrorResponse(mount.error));
    const request: ScimRequest = {
      method: req.method,
      path: req.path,
      query,
      headers: req.headers,
      ...(read.body === undefined ? {} : { body: read.body }),
      baseUrl: options.baseUrl ?? mount.value,
    };
    write(res, await server.handle(request));
  }

  /** The raw body a parser kept (`req.rawBody`, e.g. from `express.json({ verify })`), else what it parsed. */
  function body(req: Request): Promise<RequestBodyRead> | { readonly kind: 'body'; readonly body: unknown } {
    if (!req.readableEnded && (req as { _body?: unknown })._body !== true) return readRequestBody(req, limits);
    const raw = (req as { rawBody?: unknown }).rawBody;
    if (typeof raw === 'string' || raw instanceof Uint8Array) return { kind: 'body', body: raw.length === 0 ? undefined : raw };
    return { kind: 'body', body: req.body as unknown };
  }
}

function write(res: Response, response: ScimResponse): void {
  if (res.headersSent || res.destroyed) return;
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  res.end(response.body);
}
