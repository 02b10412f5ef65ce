import type { IncomingMessage, ServerResponse } from 'node:http';
import { httpError, type ScimResponse } from '@scimkit/core';
import { createAdapterPipeline, readRequestBody, scimErrorResponse, type AdapterOptions, type ScimHandler } from '@scimkit/core/adapter';

/**
 * `basePath` (default `''`), `maxBodyBytes`, `baseUrl`, `bodyTimeoutMs` and `maxPipelinedRequests`,
 * the same options with the same meaning in every adapter (`@scimkit/core/adapter`).
 */
export type NodeHandlerOptions = AdapterOptions;

/** A `node:http` request listener; `next` (when given) receives requests outside `basePath`. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: () => void) => void;

/**
 * Serve a scimkit server from `http.createServer(createNodeHandler(server, { basePath: '/scim/v2' }))`.
 * Reads the body as bytes within the size limit, hands everything else to `server.handle()`. A
 * client that disconnects mid-request or sends garbage never throws out of the handler.
 */
export function createNodeHandler(server: ScimHandler, options: NodeHandlerOptions = {}): NodeHandler {
  const pipeline = createAdapterPipeline(server, options);
  return (req, res, next) => {
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    void pipeline({
      method: req.method ?? 'GET',
      target: originForm(req.url ?? '/'),
      headers: req.headers,
      scheme: (req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http',
      host: req.headers.host,
      connection: { request: req, response: res },
      readBody: (limits) => readRequestBody(req, limits),
    }).then((response) => {
      if (response !== undefined) return send(res, response);
      if (next !== undefined) return next();
      send(res, scimErrorResponse(httpError(404)));
    });
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
