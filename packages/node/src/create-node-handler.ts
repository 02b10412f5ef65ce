import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_LIMITS, httpError, isValidHost, parseQuery, readRequestBody, scimErrorResponse, type ScimRequest, type ScimResponse, type ScimServer } from '@scimkit/core';

export interface NodeHandlerOptions {
  /** Path prefix the SCIM service is mounted at, e.g. `/scim/v2`. Default `''` (the root). */
  readonly basePath?: string;
  /** Largest request body read, in bytes; beyond it the request is answered 413 at once. Default: the server's `limits.maxBodyBytes`. */
  readonly maxBodyBytes?: number;
  /** Absolute mount-point URL for `meta.location` when behind a proxy. Default `http(s)://{Host}{basePath}`. */
  readonly baseUrl?: string;
  /** Longest wait for the whole request body, in ms; a client still sending after it gets a 408 and the connection closes. Default 30 000; 0 turns it off. */
  readonly bodyTimeoutMs?: number;
}

/** A `node:http` request listener; `next` (when given) receives requests outside `basePath`. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: () => void) => void;

/**
 * Serve a scimkit server from `http.createServer(createNodeHandler(server, { basePath: '/scim/v2' }))`.
 * Reads the body as bytes within the size limit, hands everything else to `server.handle()`. A
 * client that disconnects mid-request or sends garbage never throws out of the handler.
 */
export function createNodeHandler(server: ScimServer, options: NodeHandlerOptions = {}): NodeHandler {
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const limits = { maxBytes: options.maxBodyBytes ?? server.config.limits?.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes, timeoutMs: options.bodyTimeoutMs };

  return (req, res, next) => {
    const url = originForm(req.url ?? '/');
    const queryAt = url.indexOf('?');
    const fullPath = queryAt === -1 ? url : url.slice(0, queryAt);
    const path = fullPath.slice(basePath.length) || '/';
    if (!fullPath.startsWith(basePath) || !path.startsWith('/')) {
      if (next !== undefined) return next();
      return send(res, scimErrorResponse(httpError(404)));
    }
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    void readRequestBody(req, limits).then(async (read) => {
      if (read.kind === 'aborted') return;
      if (read.kind === 'refused') return send(res, read.response);
      const host = req.headers.host || 'localhost';
      if (!isValidHost(host)) return send(res, invalidHost());
      const scheme = (req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
      const request: ScimRequest = {
        method: req.method ?? 'GET',
        path,
        query: parseQuery(url),
        headers: req.headers,
        body: read.body,
        baseUrl: options.baseUrl ?? `${scheme}://${host}${basePath}`,
      };
      send(res, await server.handle(request));
    }).catch(() => send(res, scimErrorResponse(httpError(500, 'Internal server error'))));
  };
}

/**
 * The request target in origin form (`/path?query`). RFC 9112 §3.2.2: a server MUST accept the
 * absolute form (`http://host/path?query`) too; `*` and anything unparseable stay as they are.
 */
function originForm(target: string): string {
  if (target.startsWith('/') || !/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) return target;
  try {
    const parsed = new URL(target);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return target;
  }
}

function send(res: ServerResponse, response: ScimResponse): void {
  if (res.headersSent || res.destroyed) return;
  try {
    const body = response.body === undefined ? undefined : Buffer.from(response.body, 'utf8');
    res.writeHead(response.status, body === undefined ? response.headers : { ...response.headers, 'Content-Length': String(body.byteLength) });
    res.end(body);
  } catch {
    res.destroy();
  }
}

/** RFC 9112 §3.2: an invalid Host header is a 400, never echoed into `meta.location`. */
function invalidHost(): ScimResponse {
  return scimErrorResponse(httpError(400, 'The Host header is not a valid host[:port]'));
}
