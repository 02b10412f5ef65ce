import { requestHeader } from '../request/request-header.js';
import type { ScimRequest } from '../request/scim-request.js';

/** Longest `X-Request-Id` taken from a client; a longer one is replaced. */
export const MAX_REQUEST_ID_LENGTH = 128;

/** Visible ASCII only (RFC 9110 §5.5 field value without spaces): safe to echo and to log. */
const REQUEST_ID = new RegExp(`^[\\x21-\\x7e]{1,${MAX_REQUEST_ID_LENGTH}}$`);

/** W3C Trace Context `traceparent`: version-traceid-parentid-flags, lower-case hex. */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * The request's id: the client's `X-Request-Id` when it is 1–128 visible ASCII characters, else the
 * trace id of a valid W3C `traceparent` (so logs join the distributed trace), else a random UUID.
 */
export function requestIdOf(request: ScimRequest): string {
  const given = requestHeader(request, 'x-request-id')?.trim();
  if (given !== undefined && REQUEST_ID.test(given)) return given;
  const traceId = traceIdOf(requestHeader(request, 'traceparent'));
  return traceId ?? globalThis.crypto.randomUUID();
}

function traceIdOf(traceparent: string | undefined): string | undefined {
  const match = traceparent === undefined ? null : TRACEPARENT.exec(traceparent.trim());
  if (match === null) return undefined;
  const [, version, traceId, parentId] = match;
  // Trace Context §3.2: version ff is invalid, all-zero trace and parent ids are invalid; only
  // version 00 has a fixed length (no trailing fields).
  if (version === 'ff' || /^0+$/.test(traceId ?? '') || /^0+$/.test(parentId ?? '')) return undefined;
  if (version === '00' && match[5] !== undefined) return undefined;
  return traceId;
}
