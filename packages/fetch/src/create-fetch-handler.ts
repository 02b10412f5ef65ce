import { httpError, type ScimResponse } from '@scimkit/core';
import { createAdapterPipeline, readWebBody, scimErrorResponse, type AdapterOptions, type ScimHandler } from '@scimkit/core/adapter';

/**
 * `basePath` (default `''`), `maxBodyBytes`, `baseUrl` and `bodyTimeoutMs`, the same options with the
 * same meaning in every adapter (`@scimkit/core/adapter`). `maxPipelinedRequests` has nothing to
 * act on here: a Fetch runtime does not show the connection a request came on.
 */
export type FetchHandlerOptions = AdapterOptions;

/** A Fetch API handler: Hono's `c.req.raw`, a Next.js route handler, `Bun.serve`, `Deno.serve`, a Worker's `fetch`. */
export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * Serve a scimkit server wherever requests are Web `Request`s and answers Web `Response`s. Reads
 * the body as a stream within the size limit, hands everything else to `server.handle()`; never
 * rejects. A request outside `basePath` gets a SCIM 404.
 */
export function createFetchHandler(server: ScimHandler, options: FetchHandlerOptions = {}): FetchHandler {
  const pipeline = createAdapterPipeline(server, options);
  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return toResponse(scimErrorResponse(httpError(400, 'The request URL is not absolute')));
    }
    const response = await pipeline({
      method: request.method,
      target: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(request.headers),
      scheme: url.protocol.slice(0, -1),
      // Without a Host header (HTTP/2, a runtime that drops it), the URL's host.
      host: request.headers.get('host') || url.host,
      readBody: (limits) => readWebBody(request, limits),
    });
    return toResponse(response ?? scimErrorResponse(httpError(404)));
  };
}

function toResponse(response: ScimResponse): Response {
  return new Response(response.body ?? null, { status: response.status, headers: response.headers });
}
