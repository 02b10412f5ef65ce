import { connect } from 'node:net';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/**
 * Sends one request as raw bytes (`Connection: close`) and parses the answer: status line, headers,
 * body (Content-Length or chunked). Undefined when the server closed without answering.
 */
export function rawRequest(port: number, bytes: Buffer, timeoutMs = 10_000): Promise<RawResponse | undefined> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (data: Buffer) => chunks.push(data));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parse(Buffer.concat(chunks)));
    });
    // Write, keep the sending side open (a client half-closing may count as gone); `Connection: close` ends it.
    socket.on('connect', () => socket.write(bytes));
  });
}

function parse(raw: Buffer): RawResponse | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine ?? '')?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(end + 4);
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') body = dechunk(body);
  return { status, headers, ...(body.length === 0 ? {} : { body: body.toString('utf8') }) };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
