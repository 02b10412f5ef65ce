import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createScimServer } from '@scimkit/core';
import { createNodeHandler } from '@scimkit/node';
import { createFullServerConfig } from '../../../../examples/full-server/src/index.js';
import { FAULTY_TOKEN, type Fault } from './faults.js';

export interface Running {
  readonly url: string;
  close(): Promise<void>;
}

/** The full reference server with `fault` applied (none: the server as it is), on an ephemeral port. */
export async function serveFaulty(fault?: Fault): Promise<Running> {
  const scim = createScimServer(createFullServerConfig({ token: FAULTY_TOKEN, cursorSecret: 'faulty-server-cursor-secret-32-characters!', ...fault?.config }));
  const inner = scim.handle.bind(scim);
  const handle = fault?.wrap === undefined ? inner : fault.wrap(inner);
  const server = createServer(createNodeHandler({ handle, config: scim.config }, { basePath: '/scim/v2' }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/scim/v2`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
