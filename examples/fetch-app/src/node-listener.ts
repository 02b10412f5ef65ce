import { getRequestListener } from '@hono/node-server';
import { httpError } from '@scimkit/core';
import { scimErrorResponse } from '@scimkit/core/adapter';
import type { Hono } from 'hono';
import type { RequestListener } from 'node:http';

/**
 * A `node:http` listener for a Hono app. @hono/node-server builds the `Request` URL from the Host
 * header and refuses an invalid one itself, with an empty 400; this answers that 400 with a SCIM
 * error body, as the other adapters do (RFC 9112 §3.2).
 */
export function nodeListener(app: Hono): RequestListener {
  return getRequestListener(app.fetch, {
    errorHandler: () => {
      const { status, headers, body } = scimErrorResponse(httpError(400, 'The Host header is not a valid host[:port]'));
      return new Response(body, { status, headers });
    },
  });
}
