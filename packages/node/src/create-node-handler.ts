import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  admitBeforeBody,
  bodyLimit,
  createConnectionQueue,
  DEFAULT_MAX_PIPELINED_REQUESTS,
  httpError,
  mountBaseUrl,
  parseQuery,
  readRequestBody,
  scimErrorResponse,
  tooManyPipelinedResponse,
  type ScimHandler,
  type ScimRequest,
  type ScimResponse,
} from '@scimkit/core';

export interface NodeHandlerOptions {
  /** Path prefix the SCIM service is mounted at, e.g. `/scim/v2`. Default `''` (the root). */
  readonly basePath?: string;
  /** Largest request body read, in bytes; beyond it the request is answered 413 at once. Default: the server's `limits.maxBodyBytes`. */
  readonly maxBodyBytes?: number;
  /** Absolute mount-point URL for `meta.location` when behind a proxy. Default `http(s)://{Host}{basePath}`. */
  readonly baseUrl?: string;
  /** Longest wait for the whole request body, in ms; a client still sending after it gets a 408 and the connection closes. Default 30 000; 0 turns it off. */
  readonly bodyTimeoutMs?: number;
  /**
   * Pipelined requests that may wait on one connection behind the one being answered; one more is
   * answered 503 and the connection closes. Requests of a connection are answered one at a time, the
   * next once the previous response has reached the socket. Default 16.
   */
  readonly maxPipelinedRequests?: number;
}

/** A `node:http` request listener; `next` (when given) receives requests outside `basePath`. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: () => void) => void;

/**
 * Serve a scimkit server from `http.createServer(createNodeHandler(server, { basePath: '/scim/v2' }))`.
 * Reads the body as bytes within the size limit, hands everything else to `server.handle()`. A
 * client that disconnects mid-request or sends garbage never throws out of the handler.
 */
export function createNodeHandler(server: ScimHandler, options: NodeHandlerOptions = {}): NodeHandler {
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const limits = { maxBytes: bodyLimit(server, options.maxBodyBytes), timeoutMs: options.bodyTimeoutMs };
  const connections = createConnectionQueue(options.maxPipelinedRequests ?? DEFAULT_MAX_PIPELINED_REQUESTS);

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
    connections.enter(req, res, () => serve(req, res, url, path), () => send(res, tooManyPipelinedResponse()));
  };

  function serve(req: IncomingMessage, res: ServerResponse, url: string, path: string): void {
    // The pre-body stage (a rate limit): refused before a byte of the body is read.
    const query = parseQuery(url);
    void admitBeforeBody(server, { method: req.method ?? 'GET', path, query, headers: req.headers }).then(async (refused) => {
      if (refused !== undefined) return send(res, refused);
      const read = await readRequestBody(req, limits);
      if (read.kind === 'aborted') return;
      if (read.kind === 'refused') return send(res, read.response);
      const scheme = (req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
      // RFC 9112 §3.2: an invalid Host header is a 400, never echoed into meta.location; a missing one is localhost.
      const mount = mountBaseUrl(scheme, req.headers.host, basePath);
      if (!mount.ok) return send(res, scimErrorResponse(mount.error));
      const request: ScimRequest = {
        method: req.method ?? 'GET',
        path,
        query,
        headers: req.headers,
        body: read.body,
        baseUrl: options.baseUrl ?? mount.value,
      };
      send(res, await server.handle(request));
    }).catch(() => send(res, scimErrorResponse(httpError(500, 'Internal server error'))));
  }
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
    const body = response.body;
    let headers = response.headers;
    if (body !== undefined) {
      // Copied, then extended: a spread followed by a new key takes V8's slow path.
      const sized: Record<string, string> = Object.assign({}, headers);
      sized['Content-Length'] = String(Buffer.byteLength(body, 'utf8'));
      headers = sized;
    }
    res.writeHead(response.status, headers);
    // A string, not a Buffer: Node writes it with the header block in one write.
    res.end(body, 'utf8');
  } catch {
    res.destroy();
  }
}
