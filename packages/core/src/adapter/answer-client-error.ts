import { httpError } from '../errors/scim-error.js';
import { scimErrorResponse } from './scim-error-response.js';

/** The part of a Node socket (`net.Socket`, a `stream.Duplex`) that {@link answerClientError} uses. */
export interface ClientErrorSocket {
  readonly writable: boolean;
  readonly bytesWritten?: number;
  end(data: string): unknown;
  destroy(): unknown;
}

/** Reason phrases of the statuses answered here (RFC 9110 §15). */
const REASONS: Readonly<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Content Too Large', 431: 'Request Header Fields Too Large' };

/**
 * A `clientError` listener for a `node:http` server (also the one Express's or Koa's
 * `app.listen()` returns): a request Node's HTTP parser refuses before any handler runs (a
 * malformed request line, a lowercase or unknown method such as `get` or `FOO`, headers over
 * `maxHeaderSize`, Node's own request timeout) gets a SCIM error body (RFC 7644 §3.12) instead of
 * Node's empty one, then the connection closes. Statuses follow Node's defaults: 431, 413, 408,
 * else 400.
 *
 * ```ts
 * server.on('clientError', answerClientError);
 * ```
 */
export function answerClientError(error: Error & { code?: string; reason?: string }, socket: ClientErrorSocket): void {
  if (error.code === 'ECONNRESET' || !socket.writable || (socket.bytesWritten ?? 0) > 0) {
    socket.destroy();
    return;
  }
  const [status, detail] = describe(error);
  const response = scimErrorResponse(httpError(status, detail), { Connection: 'close' });
  const body = response.body ?? '';
  const headers = Object.entries({ ...response.headers, 'Content-Length': String(new TextEncoder().encode(body).byteLength) }).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\n${headers.join('')}\r\n${body}`);
}

function describe(error: Error & { code?: string; reason?: string }): [number, string] {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'The request line and headers are larger than this server accepts'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'The chunk extensions of the request body are too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'The request did not arrive in time'];
    case 'HPE_INVALID_METHOD':
      return [400, 'The request method is not a valid HTTP method (methods are case-sensitive: GET, POST, PUT, PATCH, DELETE)'];
    default:
      return [400, `The request is not valid HTTP/1.1${typeof error.reason === 'string' ? `: ${error.reason}` : ''}`];
  }
}
