import type { ScimError } from '../../errors/scim-error.js';
import { URN } from '../../schema/urns.js';
import type { ScimFailure } from './scim-failure.js';
import { writableHeaders } from './response-headers.js';
import type { ScimResponse } from '../request/scim-request.js';

/** RFC 7644 §3.1 / §8.1: every SCIM body is `application/scim+json`. */
export const SCIM_MEDIA_TYPE = 'application/scim+json';

/** Stage 9, serialize: a JSON response with the SCIM media type. */
export function jsonResponse(status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): ScimResponse {
  const out: Record<string, string> = { 'Content-Type': SCIM_MEDIA_TYPE };
  writableHeaders(headers, out);
  return { status, headers: out, body: JSON.stringify(body) };
}

/** A body-less response (204, 304). */
export function emptyResponse(status: number, headers: Readonly<Record<string, string>> = {}): ScimResponse {
  return { status, headers: writableHeaders(headers) };
}

/**
 * The RFC 7644 §3.12 error body. `status` is a JSON string, as the RFC's schema has it, and always
 * equals the HTTP status; `scimType` appears when one applies; `detail` is always present.
 */
export function errorBody(error: ScimError): Record<string, unknown> {
  return {
    schemas: [URN.error],
    status: String(error.status),
    ...(error.scimType === undefined ? {} : { scimType: error.scimType }),
    detail: error.detail,
  };
}

export function errorResponse(failure: ScimFailure): ScimResponse {
  return jsonResponse(failure.status, errorBody(failure), failure.headers);
}

/**
 * A ListResponse of an RFC 9865 cursor page: no `startIndex` (as both SCIM SDKs answer cursor
 * requests), `nextCursor` on every page but the last, `previousCursor` never on the first.
 */
export function cursorListBody(
  totalResults: number,
  resources: readonly unknown[],
  cursors: { readonly nextCursor?: string; readonly previousCursor?: string },
): Record<string, unknown> {
  return {
    schemas: [URN.listResponse],
    totalResults,
    itemsPerPage: resources.length,
    ...(cursors.previousCursor === undefined ? {} : { previousCursor: cursors.previousCursor }),
    ...(cursors.nextCursor === undefined ? {} : { nextCursor: cursors.nextCursor }),
    Resources: resources,
  };
}

/** A ListResponse (RFC 7644 §3.4.2). `itemsPerPage` is always the length of the page. */
export function listBody(totalResults: number, startIndex: number, resources: readonly unknown[]): Record<string, unknown> {
  return {
    schemas: [URN.listResponse],
    totalResults,
    itemsPerPage: resources.length,
    startIndex,
    Resources: resources,
  };
}
