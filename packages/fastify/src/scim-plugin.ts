import {
  admitBeforeBody,
  bodyLimit,
  createConnectionQueue,
  httpError,
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
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface ScimPluginOptions {
  /** What `createScimServer()` returns, or anything else with its `handle()`. */
  readonly server: ScimHandler;
  /** Largest body read from the request stream, in bytes (default: the server's `limits.maxBodyBytes`, 1 MiB); a larger one is a 413. */
  readonly maxBodyBytes?: number;
  /** Public URL of the mount point, when the protocol and Host seen here are not the public ones. */
  readonly baseUrl?: string;
  /** Longest wait for the request body, in ms; a client still sending after it gets a 408 and the connection closes. Default 30 000; 0 turns it off. */
  readonly bodyTimeoutMs?: number;
  /** Pipelined requests that may wait on one connection behind the one being answered (answered one at a time); one more is a 503 and the connection closes. Default 16. */
  readonly maxPipelinedRequests?: number;
}

/**
 * A Fastify 4/5 plugin serving SCIM under the prefix it is registered with:
 * `app.register(scimPlugin, { prefix: '/scim/v2', server })`. Inside its own (encapsulated)
 * context it replaces the content-type parsers with one that reads every body as bytes within the
 * limit (`application/scim+json`, `application/json` and anything else), so the core parses it and
 * a malformed body is a SCIM `400 invalidSyntax`; errors Fastify raises there become SCIM errors.
 * The application's own routes and parsers are untouched.
 */
export function scimPlugin(fastify: FastifyInstance, options: ScimPluginOptions, done: (error?: Error) => void): void {
  const { server } = options;
  const limits = { maxBytes: bodyLimit(server, options.maxBodyBytes), timeoutMs: options.bodyTimeoutMs };
  const prefix = fastify.prefix.replace(/\/+$/, '');
  const connections = createConnectionQueue(options.maxPipelinedRequests);

  const readBody = (_request: FastifyRequest, payload: Parameters<typeof readRequestBody>[0], parsed: (error: Error | null, body?: RequestBodyRead) => void): void => {
    void readRequestBody(payload, limits).then((read) => parsed(null, read));
  };
  // The pre-body stage (a rate limit): onRequest runs before Fastify reads the body.
  fastify.addHook('onRequest', async (request, reply) => {
    const { path, query } = target(request.raw.url ?? '/', prefix);
    const refused = await admitBeforeBody(server, { method: request.method, path, query, headers: request.headers });
    if (refused === undefined) return;
    send(reply, refused);
    return reply;
  });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(['application/scim+json', 'application/json'], readBody);
  fastify.addContentTypeParser('*', readBody);

  const serve = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const read = (request.body ?? { kind: 'body', body: undefined }) as RequestBodyRead;
    if (read.kind === 'aborted') return send(reply, scimErrorResponse(httpError(400, 'The request body could not be read')));
    if (read.kind === 'refused') return send(reply, read.response);
    // Issue 14 #4: a connection's pipelined requests one at a time, the next once the previous response reached the socket.
    const admitted = await new Promise<boolean>((resolve) => connections.enter(request.raw, reply.raw, () => resolve(true), () => resolve(false)));
    if (!admitted) return send(reply, tooManyPipelinedResponse());
    const { path, query } = target(request.raw.url ?? '/', prefix);
    // RFC 9112 §3.2: an invalid Host header is a 400, never echoed into meta.location; a missing one is localhost.
    const mount = mountBaseUrl(request.protocol, request.headers.host, prefix);
    if (!mount.ok) return send(reply, scimErrorResponse(mount.error));
    const scimRequest: ScimRequest = {
      method: request.method,
      path,
      query,
      headers: request.headers,
      ...(read.body === undefined ? {} : { body: read.body }),
      baseUrl: options.baseUrl ?? mount.value,
    };
    return send(reply, await server.handle(scimRequest));
  };

  fastify.all('/', serve);
  fastify.all('/*', serve);
  // Methods Fastify does not route (PURGE, …) reach the core too, which answers 405 or 501.
  fastify.setNotFoundHandler(serve);
  fastify.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    return send(reply, scimErrorResponse(httpError(status, status === 500 ? 'Internal server error' : error.message)));
  });
  done();
}

/** The path relative to the plugin's prefix, and the decoded query. */
function target(url: string, prefix: string): { path: string; query: Record<string, string | string[]> } {
  const queryAt = url.indexOf('?');
  const fullPath = queryAt === -1 ? url : url.slice(0, queryAt);
  return { path: fullPath.slice(prefix.length) || '/', query: parseQuery(url) };
}

function send(reply: FastifyReply, response: ScimResponse): FastifyReply {
  reply.code(response.status).headers(response.headers);
  return response.body === undefined ? reply.send() : reply.send(response.body);
}
