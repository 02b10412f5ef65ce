import { httpError } from '../errors/scim-error.js';
import { DEFAULT_LIMITS } from '../server/config/server-context.js';
import type { ScimRequest, ScimResponse } from '../server/request/scim-request.js';
import { admitBeforeBody } from './admit-before-body.js';
import { createConnectionQueue, tooManyPipelinedResponse, type QueuedRequest, type QueuedResponse } from './connection-queue.js';
import { mountBaseUrl } from './mount-base-url.js';
import { parseQuery } from './parse-query.js';
import type { RequestBodyOptions, RequestBodyRead } from './read-request-body.js';
import { scimErrorResponse } from './scim-error-response.js';
import type { ScimHandler } from './scim-handler.js';

/** The options every adapter takes, with the same names and meaning in all five. */
export interface AdapterOptions {
  /**
   * Path the SCIM service is served under, below wherever the framework mounted the adapter
   * (`/scim/v2`). Default `''`: the adapter's mount point itself. A request outside it goes to the
   * framework's next handler, or gets a SCIM 404 where there is none.
   */
  readonly basePath?: string | undefined;
  /** Largest request body read, in bytes; beyond it the request is answered 413 at once. Default: the server's `limits.maxBodyBytes` (1 MiB). */
  readonly maxBodyBytes?: number | undefined;
  /** Absolute mount-point URL for `meta.location` when behind a proxy. Default `{scheme}://{Host}{mount path}{basePath}`. */
  readonly baseUrl?: string | undefined;
  /** Longest wait for the whole request body, in ms; a client still sending after it gets a 408 and the connection closes. Default 30 000; 0 turns it off. */
  readonly bodyTimeoutMs?: number | undefined;
  /**
   * Pipelined requests that may wait on one HTTP/1.1 connection behind the one being answered; one
   * more is answered 503 and the connection closes. Requests of a connection are answered one at a
   * time, the next once the previous response has reached the socket. Default 16.
   */
  readonly maxPipelinedRequests?: number | undefined;
}

/** A framework's request, as an adapter hands it to its {@link AdapterPipeline}. */
export interface AdapterRequest {
  readonly method: string;
  /** The request target below the framework's mount point: path and query (`/scim/v2/Users?filter=…`), still percent-encoded. */
  readonly target: string;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** `http` or `https`, as the framework sees it. */
  readonly scheme: string;
  /** The host the client named, as received (an invalid one is a 400, never echoed); undefined when it named none. */
  readonly host: string | undefined;
  /** Where the framework mounted the adapter, as the client spelled it (Express's `req.baseUrl`, a Fastify prefix); default `''`. */
  readonly mountPath?: string | undefined;
  /** The HTTP/1.1 connection the request came on, to answer its pipelined requests in turn; none where the runtime hides it (Fetch). */
  readonly connection?: { readonly request: QueuedRequest; readonly response: QueuedResponse } | undefined;
  /**
   * Reads the body within `limits` (the Node stream, the Web stream, or what a framework's body
   * parser left: its raw text, else its parsed value); called only once the request was admitted.
   */
  readBody(limits: RequestBodyOptions): Promise<AdapterBodyRead> | AdapterBodyRead;
}

/** A body as read by {@link readRequestBody} or {@link readWebBody}, or as a framework's body parser left it (already parsed, or its raw text). */
export type AdapterBodyRead = RequestBodyRead | { readonly kind: 'body'; readonly body: unknown };

/**
 * Serves one framework request: the SCIM response to send, or undefined when the request is outside
 * `basePath` (the adapter calls the framework's next handler, or answers a SCIM 404). Never rejects.
 */
export type AdapterPipeline = (request: AdapterRequest) => Promise<ScimResponse | undefined>;

/**
 * The one way every adapter turns a framework's request into `handle()`'s input and answer, so the
 * five behave alike. In this order:
 * 1. mount: the path below `mountPath` + `basePath`, or undefined outside it;
 * 2. queue: the requests of one HTTP/1.1 connection one at a time (RFC 9112 §9.3.2), at most
 *    `maxPipelinedRequests` waiting (then 503 and the connection closes);
 * 3. admit: the server's pre-body stage (`ScimServerConfig.admit`, a rate limit), refused before a
 *    byte of the body is read;
 * 4. body: read within `maxBodyBytes` (413) and `bodyTimeoutMs` (408), both with `Connection: close`;
 *    a body cut short (the client went away, the stream failed) is a 400 with `Connection: close`,
 *    delivered when the connection can still carry it, and `handle()` is not called;
 * 5. the mount URL for `meta.location`: `baseUrl`, else `{scheme}://{host}{mount path}` with the
 *    `Host` checked (RFC 9112 §3.2: an invalid one is a 400, a missing one `localhost`);
 * 6. `handle()`; anything that throws on the way is a SCIM 500.
 */
export function createAdapterPipeline(server: ScimHandler, options: AdapterOptions = {}): AdapterPipeline {
  const basePath = withoutTrailingSlash(options.basePath ?? '');
  const limits: RequestBodyOptions = {
    maxBytes: options.maxBodyBytes ?? server.config?.limits?.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes,
    timeoutMs: options.bodyTimeoutMs,
  };
  const connections = createConnectionQueue(options.maxPipelinedRequests);

  return async (incoming) => {
    try {
      const queryAt = incoming.target.indexOf('?');
      const fullPath = queryAt === -1 ? incoming.target : incoming.target.slice(0, queryAt);
      const path = fullPath === basePath ? '/' : fullPath.startsWith(`${basePath}/`) ? fullPath.slice(basePath.length) : undefined;
      if (path === undefined) return undefined;
      if (incoming.connection !== undefined) {
        const entered = connections.enter(incoming.connection.request, incoming.connection.response);
        if (entered !== true && !(await entered)) return tooManyPipelinedResponse();
      }
      const query = parseQuery(incoming.target);
      const refused = await admitBeforeBody(server, { method: incoming.method, path, query, headers: incoming.headers });
      if (refused !== undefined) return refused;
      const read = await incoming.readBody(limits);
      if (read.kind === 'aborted') return scimErrorResponse(httpError(400, 'The request body could not be read'), { Connection: 'close' });
      if (read.kind === 'refused') return read.response;
      const mount = mountBaseUrl(incoming.scheme, incoming.host, `${incoming.mountPath ?? ''}${basePath}`);
      if (!mount.ok) return scimErrorResponse(mount.error);
      const request: ScimRequest = {
        method: incoming.method,
        path,
        query,
        headers: incoming.headers,
        ...(read.body === undefined ? {} : { body: read.body }),
        baseUrl: options.baseUrl ?? mount.value,
      };
      return await server.handle(request);
    } catch {
      return scimErrorResponse(httpError(500, 'Internal server error'));
    }
  };
}

function withoutTrailingSlash(path: string): string {
  return path.replace(/\/+$/, '');
}
