import type { Duplex } from 'node:stream';
import { SCIM_MEDIA_TYPE, URN } from '@scimkit/core';

/**
 * A `clientError` listener for a `node:http` server: a request Node's HTTP parser refuses before
 * any handler runs (a malformed request line, a lowercase or unknown method such as `get` or
 * `FOO`, headers over `maxHeaderSize`, Node's own request timeout) gets a SCIM error body
 * (RFC 7644 §3.12) instead of Node's empty one, then the connection closes. Statuses follow
 * Node's defaults: 431, 413, 408, else 400.
 *
 * ```ts
 * const server = createServer(createNodeHandler(scim, { basePath: '/scim/v2' }));
 * server.on('clientError', answerClientError);
 * ```
 */
export function answerClientError(error: Error & { code?: string; reason?: string }, socket: Duplex): void {
  const sent = (socket as { bytesWritten?: number }).bytesWritten ?? 0;
  if (error.code === 'ECONNRESET' || !socket.writable || sent > 0) {
    socket.destroy();
    return;
  }
  const [status, reason, detail] = describe(error);
  const body = JSON.stringify({ schemas: [URN.error], status: String(status), detail });
  const head = `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${SCIM_MEDIA_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
  socket.end(head + body);
}

function describe(error: Error & { code?: string; reason?: string }): [number, string, string] {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'Request Header Fields Too Large', 'The request line and headers are larger than this server accepts'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'Payload Too Large', 'The chunk extensions of the request body are too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'Request Timeout', 'The request did not arrive in time'];
    case 'HPE_INVALID_METHOD':
      return [400, 'Bad Request', 'The request method is not a valid HTTP method (methods are case-sensitive: GET, POST, PUT, PATCH, DELETE)'];
    default:
      return [400, 'Bad Request', `The request is not valid HTTP/1.1${typeof error.reason === 'string' ? `: ${error.reason}` : ''}`];
  }
}
