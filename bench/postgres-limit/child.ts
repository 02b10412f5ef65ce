/**
 * What the two servers of the postgres-limit bench share: a pg Pool on DATABASE_URL, a count of the
 * statements sent (BEGIN and COMMIT included), and the IPC with the bench (`ready` with the port;
 * `reset`, and `stats` with the statements and the process's CPU time, on request).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

export const counter = { statements: 0 };

/**
 * The server's pool: its connections never close while idle (the bench reads their backends' CPU
 * time, by `application_name`, before and after each run) and carry the server's name.
 */
export function pool(): pg.Pool {
  return new pg.Pool({ connectionString: process.env['DATABASE_URL'], max: Number(process.env['POOL'] ?? 10), idleTimeoutMillis: 0, application_name: process.env['SERVER_NAME'] ?? 'bench' });
}

/** Listens on an ephemeral port and answers the bench's messages. */
export function announce(server: Server): void {
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    process.send?.({ port: (server.address() as AddressInfo).port });
  });
  process.on('message', (message: unknown) => {
    if (message === 'reset') counter.statements = 0;
    if (message === 'stats') {
      const cpu = process.cpuUsage();
      process.send?.({ statements: counter.statements, cpuMicros: cpu.user + cpu.system });
    }
    if (message === 'exit') process.exit(0);
  });
  process.on('disconnect', () => process.exit(0));
}

/** A request's body as text. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** `value` as the SCIM JSON answer, or an empty body. */
export function sendJson(res: ServerResponse, status: number, value?: unknown): void {
  const text = value === undefined ? '' : JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/scim+json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
