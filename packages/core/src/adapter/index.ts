/**
 * @scimkit/core/adapter: what an adapter between a web framework and a scimkit server needs, and
 * nothing an application serving SCIM does (it imports its adapter: `@scimkit/node`,
 * `@scimkit/express`, `@scimkit/koa`, `@scimkit/fastify`, `@scimkit/fetch`). Each of the five is
 * only the translation of its framework's request into an {@link AdapterRequest}, handed to one
 * {@link createAdapterPipeline}, so mount path, queueing, admission, body limits and aborts behave
 * the same in all of them (docs/adapters/writing-an-adapter.md).
 *
 * These names follow the same semver rules as the main entry (docs/versioning.md).
 *
 * @module @scimkit/core/adapter
 */

// The request path every adapter shares: mount → queue → admit → body → Host → handle().
export { createAdapterPipeline } from './create-adapter-pipeline.js';
export type { AdapterOptions, AdapterRequest, AdapterPipeline, AdapterBodyRead } from './create-adapter-pipeline.js';
export type { ScimHandler } from './scim-handler.js';

// Reading a body within limits: a Node stream (`http.IncomingMessage`) or a Web `Request`.
export { readRequestBody, DEFAULT_BODY_TIMEOUT_MS } from './read-request-body.js';
export type { RequestBodyStream, RequestBodyOptions, RequestBodyRead } from './read-request-body.js';
export { readWebBody } from './read-web-body.js';
export type { WebRequestBody } from './read-web-body.js';
export type { QueuedRequest, QueuedResponse } from './connection-queue.js';
export { DEFAULT_MAX_PIPELINED_REQUESTS } from './connection-queue.js';

// Answering where `handle()` cannot: a SCIM error body for a framework's own refusals.
export { scimErrorResponse } from './scim-error-response.js';

// A `node:http` server (the one `app.listen()` returns too): connection limits and the parser's refusals as SCIM errors.
export { answerClientError } from './answer-client-error.js';
export type { ClientErrorSocket } from './answer-client-error.js';
export { limitHttpServer, DEFAULT_HTTP_SERVER_LIMITS } from './limit-http-server.js';
export type { HttpServerLimits } from './limit-http-server.js';
