import { httpError, type ScimResponse } from '@scimkit/core';
import { createAdapterPipeline, readRequestBody, scimErrorResponse, type AdapterOptions, type RequestBodyStream, type ScimHandler } from '@scimkit/core/adapter';
import type { FastifyError, FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';

/**
 * `basePath` (default `''`: the `prefix` the plugin is registered with), `maxBodyBytes`, `baseUrl`,
 * `bodyTimeoutMs` and `maxPipelinedRequests`, the same options with the same meaning in every
 * adapter (`@scimkit/core/adapter`).
 */
export type ScimPluginOptions = AdapterOptions;

/**
 * A Fastify 4/5 plugin serving SCIM under the prefix it is registered with:
 * `app.register(createScimPlugin(server), { prefix: '/scim/v2' })`. Inside its own (encapsulated)
 * context it replaces the content-type parsers with one that leaves the body unread, so the request
 * is queued and admitted before its body is read, like in every adapter, then read as bytes within
 * the limit (`application/scim+json`, `application/json` and anything else) for the core to parse:
 * a malformed body is a SCIM `400 invalidSyntax`. Errors Fastify raises there become SCIM errors.
 * The application's own routes and parsers are untouched.
 */
export function createScimPlugin(server: ScimHandler, options: ScimPluginOptions = {}): FastifyPluginCallback {
  return (fastify, _registered, done) => register(fastify, server, options, done);
}

/** What {@link scimPlugin} takes: the server with the options. */
export interface LegacyScimPluginOptions extends ScimPluginOptions {
  /** What `createScimServer()` returns, or anything else with its `handle()`. */
  readonly server: ScimHandler;
}

/**
 * @deprecated Use `app.register(createScimPlugin(server, options), { prefix })`, like every adapter's
 * `create…(server, options)`; this plugin goes in the next minor release.
 */
export function scimPlugin(fastify: FastifyInstance, options: LegacyScimPluginOptions, done: (error?: Error) => void): void {
  register(fastify, options.server, options, done);
}

function register(fastify: FastifyInstance, server: ScimHandler, options: ScimPluginOptions, done: (error?: Error) => void): void {
  const prefix = fastify.prefix.replace(/\/+$/, '');
  const pipeline = createAdapterPipeline(server, options);

  // The body stays unread until the pipeline has queued and admitted the request (as @fastify/multipart does).
  const unread = (_request: FastifyRequest, payload: RequestBodyStream, parsed: (error: Error | null, body?: RequestBodyStream) => void): void => parsed(null, payload);
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(['application/scim+json', 'application/json'], unread);
  fastify.addContentTypeParser('*', unread);

  const serve = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const url = request.raw.url ?? '/';
    // A method Fastify reads no body for (GET, HEAD…) leaves `request.body` unset: the stream is read as in the Node adapter.
    const stream = (request.body ?? request.raw) as RequestBodyStream;
    const response = await pipeline({
      method: request.method,
      target: url.startsWith(prefix) ? url.slice(prefix.length) : url,
      headers: request.headers,
      scheme: request.protocol,
      host: request.headers.host,
      mountPath: prefix,
      connection: { request: request.raw, response: reply.raw },
      readBody: (limits) => readRequestBody(stream, limits),
    });
    return send(reply, response ?? scimErrorResponse(httpError(404)));
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

function send(reply: FastifyReply, response: ScimResponse): FastifyReply {
  reply.code(response.status).headers(response.headers);
  return response.body === undefined ? reply.send() : reply.send(response.body);
}
