/** The settings of a `node:http` server that {@link limitHttpServer} sets (Node's own property names). */
export interface HttpServerLimits {
  /** Longest wait for a request's headers, in ms (Node default 60 000): a client that trickles them out loses the socket. */
  readonly headersTimeout: number;
  /** Longest wait for a whole request, headers and body, in ms (Node default 300 000); the adapters' `bodyTimeoutMs` (30 000) usually answers first, with a SCIM 408. */
  readonly requestTimeout: number;
  /** How long an idle keep-alive connection stays open, in ms (Node default 5 000). */
  readonly keepAliveTimeout: number;
  /** Open connections at once; more are closed as they arrive (Node default: no limit). */
  readonly maxConnections: number;
}

/** What the example servers use: well inside what an identity provider needs (a few connections, requests of milliseconds), far below Node's defaults. */
export const DEFAULT_HTTP_SERVER_LIMITS: HttpServerLimits = Object.freeze({
  headersTimeout: 10_000,
  requestTimeout: 60_000,
  keepAliveTimeout: 5_000,
  maxConnections: 1_000,
});

/**
 * Sets the connection limits and timeouts of a `node:http` server (the one `http.createServer()`,
 * Express's or Koa's `app.listen()`, or Fastify's `app.server` gives): slow or idle clients and
 * floods of connections are cut off by Node before they hold memory. Returns the server.
 *
 * ```ts
 * limitHttpServer(server); // DEFAULT_HTTP_SERVER_LIMITS
 * limitHttpServer(server, { ...DEFAULT_HTTP_SERVER_LIMITS, maxConnections: 200 });
 * ```
 */
export function limitHttpServer<S extends { -readonly [K in keyof HttpServerLimits]: number }>(server: S, limits: HttpServerLimits = DEFAULT_HTTP_SERVER_LIMITS): S {
  server.headersTimeout = limits.headersTimeout;
  server.requestTimeout = limits.requestTimeout;
  server.keepAliveTimeout = limits.keepAliveTimeout;
  server.maxConnections = limits.maxConnections;
  return server;
}
