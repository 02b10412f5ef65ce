/**
 * The errors the client throws. A SCIM error response (RFC 7644 §3.12) becomes a
 * {@link ScimResponseError} carrying the status, `scimType` and `detail` the server sent; a 412
 * (RFC 7644 §3.14, `If-Match` no longer current) is the subclass {@link ScimPreconditionFailedError}.
 */

/** What the server answered, kept on every response error. */
export interface ErrorResponseInfo {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly headers: Headers;
  /** The parsed body (JSON), or the raw text when it was not JSON. */
  readonly body: unknown;
}

/** Base class of every error the client throws. */
export class ScimClientError extends Error {
  override readonly name: string = 'ScimClientError';
}

/** A non-2xx answer. `status`, `scimType` and `detail` come from the SCIM error body when there is one. */
export class ScimResponseError extends ScimClientError {
  override readonly name: string = 'ScimResponseError';
  readonly status: number;
  readonly scimType: string | undefined;
  readonly detail: string | undefined;
  readonly response: ErrorResponseInfo;

  constructor(response: ErrorResponseInfo) {
    const body = typeof response.body === 'object' && response.body !== null ? (response.body as Record<string, unknown>) : {};
    const scimType = typeof body['scimType'] === 'string' ? body['scimType'] : undefined;
    const detail = typeof body['detail'] === 'string' ? body['detail'] : undefined;
    super(`${response.method} ${response.url}: ${response.status}${scimType === undefined ? '' : ` ${scimType}`}${detail ? `: ${detail}` : ''}`);
    this.status = response.status;
    this.scimType = scimType;
    this.detail = detail;
    this.response = response;
  }
}

/** 412 Precondition Failed: the resource changed since the version sent in `If-Match` (RFC 7644 §3.14). */
export class ScimPreconditionFailedError extends ScimResponseError {
  override readonly name: string = 'ScimPreconditionFailedError';
}

/** The request did not complete within `timeoutMs` (the caller's own `signal` aborts with its own reason). */
export class ScimTimeoutError extends ScimClientError {
  override readonly name: string = 'ScimTimeoutError';
  constructor(
    readonly method: string,
    readonly url: string,
    readonly timeoutMs: number,
  ) {
    super(`${method} ${url}: no complete answer within ${timeoutMs} ms`);
  }
}

/** The server answered something that is not the SCIM message expected (no JSON body, no `Resources`, …). */
export class ScimProtocolError extends ScimClientError {
  override readonly name: string = 'ScimProtocolError';
}

/** The error for a response: 412 gets its own class. */
export function responseError(info: ErrorResponseInfo): ScimResponseError {
  return info.status === 412 ? new ScimPreconditionFailedError(info) : new ScimResponseError(info);
}
