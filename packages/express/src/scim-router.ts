import { DEFAULT_LIMITS, httpError, isValidHost, parseQuery, readRequestBody, scimErrorResponse, type RequestBodyRead, type ScimRequest, type ScimResponse, type ScimServer } from '@scimkit/core';
import type { Request, RequestHandler, Response } from 'express';

/** What `createScimServer()` returns, or anything else with its `handle()`. */
export type ScimHandler = Pick<ScimServer, 'handle'> & { readonly config?: Pick<ScimServer['config'], 'limits'> };

export interface ScimRouterOptions {
  /** Largest body read from the request stream, in bytes (default: the server's `limits.maxBodyBytes`, 1 MiB); a larger one is a 413. */
  readonly maxBodyBytes?: number;
  /** Public URL of the mount point, when the protocol and Host seen here are not the public ones. */
  readonly baseUrl?: string;
  /** Longest wait for the request body this router reads, in ms; a client still sending after it gets a 408 and the connection closes. Default 30 000; 0 turns it off. */
  readonly bodyTimeoutMs?: number;
}

/**
 * Express 4/5 middleware serving SCIM at its mount path: `app.use('/scim/v2', scimRouter(server))`.
 * Reads the body itself unless a body parser already consumed the stream, in which case it passes
 * the raw body the parser kept (`req.rawBody`), else what it left in `req.body`.
 */
export function scimRouter(server: ScimHandler, options: ScimRouterOptions = {}): RequestHandler {
  const limits = { maxBytes: options.maxBodyBytes ?? server.config?.limits?.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes, timeoutMs: options.bodyTimeoutMs };
  return (req, res, next) => {
    void serve(req, res).catch(next);
  };

  async function serve(req: Request, res: Response): Promise<void> {
    const read = await body(req);
    if (read.kind === 'aborted') return;
    if (read.kind === 'refused') return write(res, read.response);
    const host = req.get('host') || undefined;
    // RFC 9112 §3.2: an invalid Host header is a 400, never echoed into meta.location.
    if (host !== undefined && !isValidHost(host)) return write(res, scimErrorResponse(httpError(400, 'The Host header is not a valid host[:port]')));
    const baseUrl = options.baseUrl ?? (host === undefined ? undefined : `${req.protocol}://${host}${req.baseUrl}`);
    const request: ScimRequest = {
      method: req.method,
      path: req.path,
      query: parseQuery(req.originalUrl),
      headers: req.headers,
      ...(read.body === undefined ? {} : { body: read.body }),
      ...(baseUrl === undefined ? {} : { baseUrl }),
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
