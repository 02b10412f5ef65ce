import { httpError } from '@scimkit/core';
import { scimErrorResponse } from '@scimkit/core/adapter';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/**
 * A Fastify `frameworkErrors` option: requests Fastify refuses before any route runs (a path with
 * broken percent-encoding, `FST_ERR_BAD_URL`; a path segment over `maxParamLength`) get a SCIM
 * error body instead of Fastify's own JSON. A path that cannot be decoded names no resource: 404,
 * as the core answers it through the other adapters.
 *
 * ```ts
 * const app = Fastify({ frameworkErrors: scimFrameworkErrors });
 * ```
 */
export function scimFrameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.code === 'FST_ERR_BAD_URL' ? 404 : error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
  const response = scimErrorResponse(httpError(status, status === 404 ? 'No resource at this path' : error.message));
  void reply.code(response.status).headers(response.headers).send(response.body);
}
