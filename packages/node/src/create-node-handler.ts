import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_LIMITS, SCIM_MEDIA_TYPE, URN, type ScimRequest, type ScimResponse, type ScimServer } from '@scimkit/core';

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
  const maxBodyBytes = options.maxBodyBytes ?? server.config.limits?.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 30_000;

  return (req, res, next) => {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const fullPath = queryAt === -1 ? url : url.slice(0, queryAt);
    const path = fullPath.slice(basePath.length) || '/';
    if (!fullPath.startsWith(basePath) || !path.startsWith('/')) {
      if (next !== undefined) return next();
      return send(res, { status: 404, headers: { 'Content-Type': SCIM_MEDIA_TYPE }, body: errorJson(404, '') });
    }
    req.on('error', () => undefined);
    res.on('error', () => undefined);

    // RFC 9110 §15.5.14: refuse a declared oversize body before reading any of it.
    if (Number(req.headers['content-length']) > maxBodyBytes) return refuse(res, 413, tooLarge(maxBodyBytes));
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    // RFC 9110 §15.5.9: a client that never finishes its body gets a 408 instead of a socket held open.
    const timer = bodyTimeoutMs > 0 ? setTimeout(() => stop(408, 'The request body did not arrive in time'), bodyTimeoutMs) : undefined;
    timer?.unref();
    req.on('close', () => clearTimeout(timer));
    const stop = (status: number, detail: string): void => {
      if (refused) return;
      refused = true;
      chunks.length = 0;
      clearTimeout(timer);
      refuse(res, status, detail);
    };
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size <= maxBodyBytes) return void chunks.push(chunk);
      stop(413, tooLarge(maxBodyBytes));
    });
    req.on('end', () => {
      clearTimeout(timer);
      if (refused) return;
      const host = validHost(req.headers.host) ?? 'localhost';
      const scheme = (req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
      const request: ScimRequest = {
        method: req.method ?? 'GET',
        path,
        query: parseQuery(queryAt === -1 ? '' : url.slice(queryAt + 1)),
        headers: req.headers,
        body: size === 0 ? undefined : Buffer.concat(chunks),
        baseUrl: options.baseUrl ?? `${scheme}://${host}${basePath}`,
      };
      void server.handle(request).then((response) => send(res, response), () => send(res, { status: 500, headers: { 'Content-Type': SCIM_MEDIA_TYPE }, body: errorJson(500, 'Internal server error') }));
    });
  };
}

/** Decoded query parameters; a repeated parameter becomes an array. */
function parseQuery(text: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [key, value] of new URLSearchParams(text)) {
    const held = query[key];
    query[key] = held === undefined ? value : Array.isArray(held) ? [...held, value] : [held, value];
  }
  return query;
}

/** A SCIM error that ends the exchange: `Connection: close`, so the unread rest of the body is dropped with the socket. */
function refuse(res: ServerResponse, status: number, detail: string): void {
  send(res, { status, headers: { 'Content-Type': SCIM_MEDIA_TYPE, Connection: 'close' }, body: errorJson(status, detail) });
}

/** The same 413 detail as the Express and Koa adapters. */
function tooLarge(limit: number): string {
  return `The request body exceeds ${limit} bytes.`;
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

/** A Host header fit to build URLs from (`name[:port]` or `[v6][:port]`), else undefined. */
function validHost(host: string | undefined): string | undefined {
  return host !== undefined && /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/.test(host) ? host : undefined;
}

function errorJson(status: number, detail: string): string {
  return JSON.stringify({ schemas: [URN.error], status: String(status), detail });
}
