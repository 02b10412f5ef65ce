export { readRequestBody, DEFAULT_BODY_TIMEOUT_MS } from './read-request-body.js';
export type { RequestBodyStream, RequestBodyOptions, RequestBodyRead } from './read-request-body.js';
export { parseQuery } from './parse-query.js';
export { scimErrorResponse } from './scim-error-response.js';
export { answerClientError } from './answer-client-error.js';
export type { ClientErrorSocket } from './answer-client-error.js';
export { isValidHost } from './valid-host.js';
