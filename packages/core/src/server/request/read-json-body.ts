import { err, ok, type Result } from '../../errors/result.js';
import { httpError, scimError, type ScimError } from '../../errors/scim-error.js';
import { duplicateMember } from './duplicate-member.js';
import { requestMediaType } from './json-media-type.js';
import { requestHeader } from './request-header.js';
import type { ScimRequest } from './scim-request.js';
import type { ServerContext } from '../config/server-context.js';
import type { RequestRecording } from '../observe/request-recording.js';
import { illFormedString } from './well-formed-json.js';

/**
 * Stage 3, parse: the request body as JSON (RFC 7644 §3.8). Accepts `application/scim+json`,
 * `application/json`, any other `+json` type, or no `Content-Type`; anything else is 415, also
 * when a framework's body parser already turned the body into a value (a parsed form body is
 * not a SCIM body). Bytes are decoded as UTF-8, or as the `charset` the client names (RFC 7644
 * §3.8); an unknown charset is 415, bytes that are not valid in it 400 invalidSyntax. A body
 * over `limits.maxBodyBytes` is 413 (RFC 7644 §3.7.4); an empty or unparseable one, one with
 * a member name twice in one object, or one holding a lone surrogate, is 400 invalidSyntax.
 * With `recording` (a request log is configured), the text decoded from bytes is kept there.
 */
export function readJsonBody(context: ServerContext, request: ScimRequest, limit?: BodyLimit, recording?: RequestRecording): Result<unknown> {
  const contentType = requestHeader(request, 'content-type');
  const mediaType = requestMediaType(contentType);
  if (!mediaType.json) {
    return err(httpError(415, `Unsupported Content-Type ${JSON.stringify((contentType ?? '').slice(0, 100))}; send application/scim+json`));
  }
  const body = asBytes(request.body);
  if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array)) return wellFormed(body);

  const max = limit?.maxBytes ?? context.limits.maxBodyBytes;
  if (exceeds(body, max)) return err(httpError(413, limit?.detail ?? `The request body is larger than the maximum of ${max} bytes`));
  const text = body instanceof Uint8Array ? decode(body, mediaType.charset) : ok(typeof body === 'string' ? stripBom(body) : '');
  if (!text.ok) return text;
  // The request log keeps this text rather than decoding the same bytes again.
  if (recording !== undefined && body instanceof Uint8Array) recording.requestBodyText = text.value;
  if (text.value.trim() === '') return err(scimError('invalidSyntax', 'The request body is empty; a JSON object is required'));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.value) as unknown;
  } catch (error) {
    const reason = error instanceof SyntaxError ? `: ${error.message}` : '';
    return err(scimError('invalidSyntax', `The request body is not valid JSON${reason}`));
  }
  const duplicate = duplicateMember(text.value);
  if (duplicate !== undefined) {
    return err(scimError('invalidSyntax', `The request body has the member ${JSON.stringify(duplicate.slice(0, 100))} twice in one object (RFC 8259 §4)`));
  }
  return mayHoldLoneSurrogate(text.value) ? wellFormed(parsed) : ok(parsed);
}

/**
 * Whether JSON text could parse to a string with a lone surrogate: only through a `\uD800`–`\uDFFF`
 * escape or a surrogate in the text itself. Two native scans of the text spare the walk of every
 * parsed string in the usual body, which has neither.
 */
function mayHoldLoneSurrogate(text: string): boolean {
  return SURROGATE_ESCAPE.test(text) || LONE_SURROGATE_IN_TEXT.test(text);
}

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE_IN_TEXT = /\p{Cs}/u;

/** A body limit other than `limits.maxBodyBytes` (Bulk's `maxPayloadSize`), with the 413 detail naming it. */
export interface BodyLimit {
  readonly maxBytes: number;
  readonly detail: string;
}

/** Bytes in any binary form (`ArrayBuffer`, `DataView`, typed array) as a `Uint8Array`. */
function asBytes(body: unknown): unknown {
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  return body;
}

/** Decode strictly: a byte sequence that is not valid in the encoding is an error, never U+FFFD. */
function decode(bytes: Uint8Array, charset = 'utf-8'): Result<string, ScimError> {
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    return err(httpError(415, `Unsupported charset ${JSON.stringify(charset.slice(0, 40))}; send UTF-8 (RFC 7644 §3.8)`));
  }
  try {
    // TextDecoder drops a leading byte order mark of its encoding (WHATWG Encoding, "decode").
    return ok(decoder.decode(bytes));
  } catch {
    return err(scimError('invalidSyntax', `The request body is not valid ${decoder.encoding.toUpperCase()} text`));
  }
}

function wellFormed(value: unknown): Result<unknown> {
  const bad = illFormedString(value);
  if (bad === undefined) return ok(value);
  return err(scimError('invalidSyntax', `The request body holds a string that is not valid Unicode (a lone surrogate): ${JSON.stringify(bad.slice(0, 40))}`));
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
