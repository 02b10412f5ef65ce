import type { IncomingMessage, ServerResponse } from 'node:http';

/** The requests of one connection: the one being answered, and the pipelined ones behind it. */
interface Lane {
  busy: boolean;
  readonly waiting: (() => void)[];
}

/**
 * Answers the requests of one HTTP/1.1 connection one at a time, in order (RFC 9112 §9.3.2), and
 * starts the next only once the previous response has been handed to the socket (its `finish`),
 * so a client that pipelines requests and never reads the responses stops being served when its
 * socket buffers are full, instead of the server building every response in memory. At most
 * `maxWaiting` requests wait behind the current one; a request beyond that gets `refuse`.
 */
export class ConnectionQueue {
  readonly #lanes = new WeakMap<object, Lane>();

  constructor(private readonly maxWaiting: number) {}

  /** Runs `serve` when the connection of `req` is free; `refuse` at once when too many wait. */
  enter(req: IncomingMessage, res: ServerResponse, serve: () => void, refuse: () => void): void {
    // HTTP/2 (compatibility mode) multiplexes streams: flow control is per stream, not ours to order.
    if (req.httpVersionMajor >= 2) return serve();
    const socket = req.socket as object | null;
    if (socket === null) return serve();
    let lane = this.#lanes.get(socket);
    if (lane === undefined) this.#lanes.set(socket, (lane = { busy: false, waiting: [] }));
    const run = (): void => {
      lane.busy = true;
      let done = false;
      const release = (): void => {
        if (done) return;
        done = true;
        lane.busy = false;
        lane.waiting.shift()?.();
      };
      res.once('finish', release);
      res.once('close', release);
      serve();
    };
    if (!lane.busy) return run();
    if (lane.waiting.length >= this.maxWaiting) return refuse();
    lane.waiting.push(run);
  }
}
