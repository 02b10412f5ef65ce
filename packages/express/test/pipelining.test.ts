import express from 'express';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createScimRouter } from '../src/index.js';
import { listen, type Listening } from '../../../tests/adapter-support/listen.js';
import { countingSeededHandler, neverReading, pipelined, readStatuses } from '../../../tests/adapter-support/pipelining.js';

describe('createScimRouter with pipelined requests (issue 14 #4)', () => {
  let server: Listening | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await server?.close();
    server = undefined;
  });

  it('stops building responses for a client that pipelines and never reads, and answers a reading one in order', async () => {
    const { handler, handled } = await countingSeededHandler(200);
    const app = express();
    app.use('/scim/v2', createScimRouter(handler));
    server = await listen(app);
    sockets.push(await neverReading(server.port, pipelined(300, '/scim/v2/Users?count=200')));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(handled()).toBeLessThan(20);
    expect(await readStatuses(server.port, pipelined(3, '/scim/v2/Users?count=1') + pipelined(1, '/scim/v2/Users/missing'), 4)).toEqual(['200', '200', '200', '404']);
  });
});
