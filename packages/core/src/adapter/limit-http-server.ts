/** The settings of a `node:http` server that {@link limitHttpServer} sets or enforces. */
export interface HttpServerLimits {
  /** Longest wait for a request's headers, in ms (Node default 60 000): a client that trickles them out loses the socket. */
  readonly headersTimeout: number;
  /** Longest wait for a whole request, headers and body, in ms (Node default 300 000); the adapters' `bodyTimeoutMs` (30 000) usually answers first, with a SCIM 408. */
  readonly requestTimeout: number;
  /** How long an idle keep-alive connection stays open, in ms (Node default 5 000). */
  readonly keepAliveTimeout: number;
  /**
   * Open connections at once (Node default: no limit). At the limit a newcomer first takes the place
   * of a connection that holds nothing up: an idle keep-alive one, else one that has sent no request
   * for `silentGraceMs`; only when every connection is in a request is the newcomer closed.
   */
  readonly maxConnections: number;
  /** Open connections from one remote address; more from it are closed as they arrive (after the same eviction). Default `maxConnections / 4`. */
  readonly maxConnectionsPerAddress?: number;
  /** How long a connection may stay open without sending a request before a newcomer may take its place at a limit, in ms. Default 2 000. */
  readonly silentGraceMs?: number;
}

/** What the example servers use: well inside what an identity provider needs (a few connections, requests of milliseconds), far below Node's defaults. */
export const DEFAULT_HTTP_SERVER_LIMITS: HttpServerLimits = Object.freeze({
  headersTimeout: 10_000,
  requestTimeout: 60_000,
  keepAliveTimeout: 5_000,
  maxConnections: 1_000,
  maxConnectionsPerAddress: 250,
  silentGraceMs: 2_000,
});

/** The part of a `net.Socket` the limits use. */
interface TrackedSocket {
  readonly remoteAddress?: string | undefined;
  destroy(): unknown;
  once(event: 'close', listener: () => void): unknown;
}

/** The part of an `http.ServerResponse` the limits use. */
interface TrackedResponse {
  once(event: 'close' | 'finish', listener: () => void): unknown;
}

/** The part of a `node:http` server {@link limitHttpServer} uses (also Express's, Koa's and Fastify's). */
export interface LimitableHttpServer {
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  maxConnections: number;
  on(event: string, listener: (...args: any[]) => void): unknown;
}

/** One open connection: where it comes from, when it opened, requests seen and requests not yet answered. */
interface Connection {
  readonly socket: TrackedSocket;
  readonly address: string;
  readonly openedAt: number;
  requests: number;
  inFlight: number;
}

/**
 * Sets the connection limits and timeouts of a `node:http` server (the one `http.createServer()`,
 * Express's or Koa's `app.listen()`, or Fastify's `app.server` gives): slow or idle clients and
 * floods of connections are cut off before they hold memory, and one client holding idle or silent
 * connections cannot lock the others out (see docs/adapters/node.md). Returns the server.
 *
 * ```ts
 * limitHttpServer(server); // DEFAULT_HTTP_SERVER_LIMITS
 * limitHttpServer(server, { ...DEFAULT_HTTP_SERVER_LIMITS, maxConnections: 200 });
 * ```
 */
export function limitHttpServer<S extends LimitableHttpServer>(server: S, limits: HttpServerLimits = DEFAULT_HTTP_SERVER_LIMITS): S {
  server.headersTimeout = limits.headersTimeout;
  server.requestTimeout = limits.requestTimeout;
  server.keepAliveTimeout = limits.keepAliveTimeout;
  const cap = limits.maxConnections;
  const perAddress = limits.maxConnectionsPerAddress ?? Math.max(1, Math.floor(cap / 4));
  const grace = limits.silentGraceMs ?? 2_000;
  // Node drops a connection past its own maxConnections before any listener sees it, so the limit is
  // enforced here; Node's is only a backstop against a burst faster than closing sockets.
  server.maxConnections = cap * 2;
  const open = new Map<TrackedSocket, Connection>();
  const byAddress = new Map<string, number>();

  const forget = (connection: Connection): void => {
    if (!open.delete(connection.socket)) return;
    const left = (byAddress.get(connection.address) ?? 1) - 1;
    if (left === 0) byAddress.delete(connection.address);
    else byAddress.set(connection.address, left);
  };

  /** Close the connection that holds the least up among those `eligible` accepts: idle keep-alive first, then the oldest silent one. */
  const evict = (eligible: (connection: Connection) => boolean): boolean => {
    const now = Date.now();
    let silent: Connection | undefined;
    for (const connection of open.values()) {
      if (connection.inFlight > 0 || !eligible(connection)) continue;
      if (connection.requests > 0) return close(connection);
      if (silent === undefined && now - connection.openedAt >= grace) silent = connection;
    }
    return silent !== undefined && close(silent);
  };
  const close = (connection: Connection): true => {
    forget(connection);
    connection.socket.destroy();
    return true;
  };

  server.on('connection', (socket: TrackedSocket) => {
    const address = socket.remoteAddress ?? '';
    const admitted =
      ((byAddress.get(address) ?? 0) < perAddress || evict((connection) => connection.address === address)) && (open.size < cap || evict(() => true));
    if (!admitted) {
      socket.destroy();
      return;
    }
    const connection: Connection = { socket, address, openedAt: Date.now(), requests: 0, inFlight: 0 };
    open.set(socket, connection);
    byAddress.set(address, (byAddress.get(address) ?? 0) + 1);
    socket.once('close', () => forget(connection));
  });

  server.on('request', (request: { socket: TrackedSocket }, response: TrackedResponse) => {
    const connection = open.get(request.socket);
    if (connection === undefined) return;
    connection.requests++;
    connection.inFlight++;
    let done = false;
    const answered = (): void => {
      if (done) return;
      done = true;
      connection.inFlight--;
    };
    response.once('finish', answered);
    response.once('close', answered);
  });
  return server;
}
