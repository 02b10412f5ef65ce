import { connect } from 'node:net';

/**
 * Writes raw bytes to a server and collects what comes back until it closes the connection (or
 * `settleMs` pass). `hangUp` closes the client side right after writing: a client disconnecting mid-request.
 */
export function rawExchange(port: number, chunks: readonly string[], options: { hangUp?: boolean; settleMs?: number } = {}): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const done = (): void => {
      socket.destroy();
      resolve(received);
    };
    const timer = setTimeout(done, options.settleMs ?? 1000);
    socket.on('data', (data: Buffer) => (received += data.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
      if (options.hangUp === true) {
        clearTimeout(timer);
        socket.destroy();
        resolve(received);
      }
    });
  });
}
