import { admitBeforeBody, bodyLimit, httpError, mountBaseUrl, parseQuery, scimErrorResponse, type ScimHandler, type ScimRequest, type ScimResponse } from '@scimkit/core';
import { readBodyStream } from './read-body-stream.js';

export interface FetchHandlerOptions {
  /** Path prefix the SCIM service is mounted at, e.g. `/scim/v2`. Default `''` (the root). */
  readonly basePath?: string;
  /** Largest request body read, in bytes; beyond it the request is answered 413 at once. Default: the server's `limits.maxBodyBytes`. */
  readonly maxBodyBytes?: number;
  /** Absolute mount-point URL for `meta.location` when behind a proxy. Default `{protocol}//{Host}{basePath}`. */
  readonly baseUrl?: string;
  /** Longest wait for the whole request body, in ms; a client still sending after it gets a 408. Default 30 000; 0 turns it off. */
  readonly bodyTimeoutMs?: number;
}

/** A Fetch API handler: Hono's `c.req.raw`, a Next.js route handler, `Bun.serve`, `Deno.serve`, a Worker's `fetch`. */
export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * Serve a scimkit server wherever requests are Web `Request`s and answers Web `Response`s. Reads
 * the body as a stream within the size limit, hands everything else to `server.handle()`; never
 * rejects. A request outside `basePath` gets a SCIM 404.
 */
export function createFetchHandler(server: ScimHandler, options: FetchHandlerOptions = {}): FetchHandler {
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const limits = { maxBytes: bodyLimit(server, options.maxBodyBytes), timeoutMs: options.bodyTimeoutMs };

  return async (request) => {
    try {
      const url = new URL(request.url);
      const path = url.pathname.slice(basePath.length) || '/';
      if (!url.pathname.startsWith(basePath) || !path.startsWith('/')) return toResponse(scimErrorResponse(httpError(404)));
      const query = parseQuery(url.search);
      const headers = Object.fromEntries(request.headers);
      // The pre-body stage (a rate limit): refused before a byte of the body is read.
      const refused = await admitBeforeBody(server, { method: request.method, path, query, headers });
      if (refused !== undefined) return toResponse(refused);
      const read = await readBodyStream(request, limits);
      if (read.kind === 'aborted') return toResponse(scimErrorResponse(httpError(400, 'The request body could not be read')));
      if (read.kind === 'refused') return toResponse(read.response);
      // RFC 9112 §3.2: an invalid Host header is a 400, never echoed into meta.location; without one, the URL's host.
      const mount = mountBaseUrl(url.protocol.slice(0, -1), request.headers.get('host') || url.host, basePath);
      if (!mount.ok) return toResponse(scimErrorResponse(mount.error));
      const scimRequest: ScimRequest = {
        method: request.method,
        path,
        query,
        headers,
        ...(read.body === undefined ? {} : { body: read.body }),
        baseUrl: options.baseUrl ?? mount.value,
      };
      return toResponse(await server.handle(scimRequest));
    } catch {
      return toResponse(scimErrorResponse(httpError(500, 'Internal server error')));
    }
  };
}

function toResponse(response: ScimResponse): Response {
  return new Response(response.body ?? null, { status: response.status, headers: response.headers });
}
