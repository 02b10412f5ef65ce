import { err, ok, type Result } from '../errors/result.js';
import { httpError, scimError } from '../errors/scim-error.js';
import { requestHeader } from './request-header.js';
import type { ScimRequest } from './scim-request.js';
import type { ServerContext } from './server-context.js';

/**
 * Stage 3, parse: the request body as JSON (RFC 7644 §3.8). Accepts `application/scim+json`,
 * `application/json`, any other `+json` type, or no `Content-Type`; anything else is 415. A body
 * over `limits.maxBodyBytes` is 413 (RFC 7644 §3.7.4); an empty or unparseable one is 400
 * invalidSyntax. A body a framework already parsed is taken as it is.
 */
export function readJsonBody(context: ServerContext, request: ScimRequest): Result<unknown> {
  const body = request.body;
  if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) return ok(body);

  const contentType = requestHeader(request, 'content-type');
  if (contentType !== undefined && contentType.trim() !== '' && !isJsonMediaType(contentType)) {
    return err(httpError(415, `Unsupported Content-Type ${JSON.stringify(contentType.slice(0, 100))}; send application/scim+json`));
  }
  const max = context.limits.maxBodyBytes;
  if (exceeds(body, max)) return err(httpError(413, `The request body is larger than the maximum of ${max} bytes`));
  const text = typeof body === 'string' ? body : body instanceof Uint8Array ? new TextDecoder('utf-8', { fatal: false }).decode(body) : '';
  if (text.trim() === '') return err(scimError('invalidSyntax', 'The request body is empty; a JSON object is required'));
  try {
    return ok(JSON.parse(stripBom(text)) as unknown);
  } catch (error) {
    const reason = error instanceof SyntaxError ? `: ${error.message}` : '';
    return err(scimError('invalidSyntax', `The request body is not valid JSON${reason}`));
  }
}

/** `type/subtype` is `…/json` or `…/…+json`, parameters ignored. */
function isJsonMediaType(contentType: string): boolean {
  const mediaType = (contentType.split(';', 1)[0] ?? '').trim().toLowerCase();
  const subtype = mediaType.split('/')[1] ?? '';
  return subtype === 'json' || subtype.endsWith('+json');
}

function exceeds(body: unknown, max: number): boolean {
  if (body instanceof Uint8Array) return body.byteLength > max;
  if (typeof body !== 'string') return false;
  // UTF-8 takes at least one byte per UTF-16 unit and at most three: encode only when in doubt.
  if (body.length > max) return true;
  if (body.length * 3 <= max) return false;
  return new TextEncoder().encode(body).byteLength > max;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
