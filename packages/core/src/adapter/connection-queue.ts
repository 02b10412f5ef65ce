import { httpError } from '../errors/scim-error.js';
import type { ScimResponse } from '../server/request/scim-request.js';
import { scimErrorResponse } from './scim-error-response.js';

/** The part of a Node request (`http.IncomingMessage`) that a {@link ConnectionQueue} reads. */
export interface QueuedRequest {
  readonly httpVersionMajor: number;
  readonly socket: object | null;
}

/** The part of a Node response (`http.ServerResponse`) that a {@link ConnectionQueue} watches. */
export interface QueuedResponse {
  once(event: 'close', listener: () => void): unknown;
}

/** Answers the requests of each HTTP/1.1 connection one at a time; see {@link createConnectionQueue}. */
export interface ConnectionQueue {
  /**
   * `true` when the connection of `req` is free (always for HTTP/2): serve it now; `false` when too
   * many wait already: refuse it; else a promise that resolves `true` when its turn comes. Answered
   * without a promise in the common case (a client that does not pipeline).
   */
  enter(req: QueuedRequest, res: QueuedResponse): boolean | Promise<boolean>;
}

/** Default of the adapters' `maxPipelinedRequests`. */
export const DEFAULT_MAX_PIPELINED_REQUESTS = 16;

/** The requests of one connection: the one being answered, and the pipelined ones behind it. */
interface Lane {
  busy: boolean;
  readonly waiting: (() => void)[];
}

/**
 * Answers the requests of one HTTP/1.1 connection one at a time, in order (RFC 9112 §9.3.2), and
 * starts the next only once the previous response has been handed to the socket (its `close`, which
 * Node emits after `finish`, or when the connection goes),
 * so a client that pipelines requests and never reads the responses stops being served when its
 * socket buffers are full, instead of the server building every response in memory. At most
 * `maxWaiting` requests wait behind the current one; a request beyond that gets `refuse`
 * ({@link tooManyPipelinedResponse}). A client that does not pipeline never waits.
 */
export function createConnectionQueue(maxWaiting: number = DEFAULT_MAX_PIPELINED_REQUESTS): ConnectionQueue {
  // Each queue's own state (the requests of each connection), not a cache: one queue per server.
  const lanes = new WeakMap<object, Lane>();
  return {
    enter(req, res) {
      // HTTP/2 (compatibility mode) multiplexes streams: flow control is per stream, not ours to order.
      if (req.httpVersionMajor >= 2 || req.socket === null) return true;
      let lane = lanes.get(req.socket);
      if (lane === undefined) lanes.set(req.socket, (lane = { busy: false, waiting: [] }));
      if (!lane.busy) {
        occupy(lane, res);
        return true;
      }
      if (lane.waiting.length >= maxWaiting) return false;
      const current = lane;
      return new Promise((resolve) => {
        current.waiting.push(() => {
          occupy(current, res);
          resolve(true);
        });
      });
    },
  };
}

/** `res` holds `lane` until it closes; then the next waiting request runs. */
function occupy(lane: Lane, res: QueuedResponse): void {
  lane.busy = true;
  // A response emits `close` once it is finished or its connection is gone, whichever comes first.
  res.once('close', () => {
    lane.busy = false;
    lane.waiting.shift()?.();
  });
}

/** RFC 9110 §15.6.4: more pipelined requests than a connection may queue; the connection closes after it. */
export function tooManyPipelinedResponse(): ScimResponse {
  return scimErrorResponse(httpError(503, 'Too many pipelined requests on this connection: read the responses before sending more'), { Connection: 'close' });
}
