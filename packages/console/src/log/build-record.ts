import type { RecordedRequest } from '@scimkit/core';
import { recordChange } from './diff-resources.js';
import { hintFor } from './hint-for.js';
import { clientOf, identityProviderOf } from './identify-client.js';
import { MASKED, REDACTED, SECRET_NAME } from './redaction-options.js';
import { Redactor, type RedactionPolicy } from './redactor.js';
import type { RecordedBody, RequestLogRecord } from './request-log-record.js';

/** Bounds of one record. */
export interface RecordLimits {
  /** Longest body text kept (request and response each), in characters. Default 16,384. */
  readonly maxBodyBytes?: number;
  /**
   * Which response bodies are kept: `errors` (default: the error a client got; a write's result is
   * in the record's changes as a diff) or `writes` (also the resource a create, replace or patch
   * answered). A read's resource is never copied into the log.
   */
  readonly responseBodies?: 'errors' | 'writes';
}

export const DEFAULT_MAX_BODY_BYTES = 16_384;

/** The request headers a record keeps (besides credentials, kept as `[redacted]`). */
const KEPT_HEADERS = new Set(['user-agent', 'content-type', 'content-length', 'accept', 'if-match', 'if-none-match', 'prefer', 'x-request-id', 'traceparent', 'host', 'x-forwarded-for', 'x-forwarded-host']);

/** Whether a header holds a credential (names repeat on every request: decided once each). */
function isSecretHeader(lower: string): boolean {
  let secret = SECRET_HEADERS.get(lower);
  if (secret === undefined) {
    secret = SECRET_NAME.test(lower) || lower.startsWith('x-api') || lower.startsWith('proxy-auth');
    if (SECRET_HEADERS.size >= 1000) SECRET_HEADERS.clear();
    SECRET_HEADERS.set(lower, secret);
  }
  return secret;
}
const SECRET_HEADERS = new Map<string, boolean>();

/** Methods that write. */
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The record the log keeps of one answered request: everything redacted (docs/concepts/console.md,
 * "Redaction"): credentials and secrets never kept, personal values per the policy, every removed
 * value also scrubbed from free text, bodies cut at `maxBodyBytes`.
 */
export function buildRecord(recorded: RecordedRequest, id: string, redaction: RedactionPolicy, limits: RecordLimits, clientName?: (recorded: RecordedRequest) => string | undefined): RequestLogRecord {
  const redactor = new Redactor(redaction);
  const maxBody = limits.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const { request, response } = recorded;
  const headers = request.headers ?? {};
  const method = typeof request.method === 'string' ? request.method.toUpperCase() : '';

  // Credentials first, so their values are scrubbed from everything after. Only the headers that
  // explain a SCIM exchange are kept; a credential is kept as the fact that it was sent.
  const requestHeaders: Record<string, string> = {};
  let authorization: string | undefined;
  let userAgent: string | undefined;
  for (const name of Object.keys(headers)) {
    const raw = (headers as Record<string, unknown>)[name];
    if (raw === undefined) continue;
    const value = (Array.isArray(raw) ? raw.join(', ') : String(raw)).slice(0, 2000);
    const lower = name.toLowerCase();
    if (lower === 'authorization') authorization = value;
    if (lower === 'user-agent') userAgent = value;
    if (isSecretHeader(lower)) {
      redactor.remember(value);
      for (const part of value.split(/[\s,;=]+/)) if (!/^(bearer|basic|digest|token|dpop)$/i.test(part)) redactor.remember(part);
      requestHeaders[lower] = REDACTED;
    } else if (KEPT_HEADERS.has(lower)) requestHeaders[lower] = value;
  }

  const requestJson = parseBody(request.body);
  const requestBody = requestJson.present ? bodyOf(redactor, requestJson, maxBody) : undefined;
  const keepResponse = response.status >= 400 || (limits.responseBodies === 'writes' && WRITES.has(method));
  const responseJson = response.body === undefined || !keepResponse ? { present: false as const } : parseBody(response.body);
  const error = errorOf(responseJson);
  const responseBody = keepResponse && responseJson.present ? bodyOf(redactor, responseJson, maxBody) : undefined;
  const changes = recorded.changes.map((change) => recordChange(change, redactor));

  const query: Record<string, string> = {};
  for (const name of Object.keys(request.query ?? {})) {
    const value = (request.query as Record<string, string | readonly string[] | undefined>)[name];
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(',') : String(value);
    if (SECRET_NAME.test(name)) {
      redactor.remember(text);
      query[name] = REDACTED;
    } else query[name] = /filter/i.test(name) ? redactor.filterText(text) : text;
  }

  const userName = userNameOf(recorded, requestJson.value, query['filter'] ?? (typeof request.query?.['filter'] === 'string' ? request.query['filter'] : undefined), redactor);
  const scrub = (text: string): string => (redactor.scrubs ? redactor.text(text) : text);
  const scrubAll = (entries: Record<string, string>): Record<string, string> => {
    if (!redactor.scrubs) return entries;
    for (const key of Object.keys(entries)) entries[key] = redactor.text(entries[key] as string);
    return entries;
  };
  const idp = identityProviderOf(userAgent);
  const client = scrub(clientName?.(recorded) ?? clientOf(recorded.principal, authorization));
  const hint = hintFor(recorded, requestJson.value, error.scimType, error.detail);

  const record: { -readonly [K in keyof RequestLogRecord]: RequestLogRecord[K] } = {
    id,
    tenant: recorded.tenant ?? '',
    requestId: scrub(recorded.requestId),
    time: Math.round(recorded.startedAt),
    durationMs: Math.round(recorded.durationMs * 1000) / 1000,
    method,
    path: scrub(recorded.path),
    query: scrubAll(query),
    status: response.status,
    client,
    changes: redactor.scrubs ? changes.map((change) => ({ ...change, diff: change.diff.map((d) => ({ path: scrub(d.path), ...(d.before === undefined ? {} : { before: scrub(d.before) }), ...(d.after === undefined ? {} : { after: scrub(d.after) }) })) })) : changes,
    requestHeaders: scrubAll(requestHeaders),
  };
  if (error.scimType !== undefined) record.scimType = error.scimType;
  if (error.detail !== undefined) record.detail = scrub(error.detail);
  if (idp !== undefined) record.idp = idp;
  if (userAgent !== undefined) record.userAgent = scrub(userAgent.slice(0, 300));
  if (recorded.operation !== undefined) record.operation = recorded.operation;
  if (recorded.resourceType !== undefined) record.resourceType = recorded.resourceType;
  if (recorded.resourceId !== undefined) record.resourceId = scrub(recorded.resourceId);
  if (userName !== undefined) record.userName = userName;
  if (requestBody !== undefined) record.requestBody = { ...requestBody, text: scrub(requestBody.text) };
  if (responseBody !== undefined) record.responseBody = { ...responseBody, text: scrub(responseBody.text) };
  if (hint !== undefined) record.hint = hint;
  return record;
}

type ParsedBody = { readonly present: false; readonly value?: undefined } | { readonly present: true; readonly json: boolean; readonly value: unknown; readonly bytes: number };

function parseBody(body: unknown): ParsedBody {
  if (body === undefined || body === null || body === '') return { present: false };
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const text = typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
    const bytes = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    if (bytes === 0) return { present: false };
    try {
      return { present: true, json: true, value: JSON.parse(text) as unknown, bytes };
    } catch {
      return { present: true, json: false, value: undefined, bytes };
    }
  }
  let bytes = 0;
  try {
    bytes = Buffer.byteLength(JSON.stringify(body) ?? '');
  } catch {
    bytes = 0;
  }
  return { present: true, json: true, value: body, bytes };
}

/** A body as kept: redacted JSON text, cut; a body that is not JSON is not kept at all (it could hold anything). */
function bodyOf(redactor: Redactor, parsed: ParsedBody & { present: true }, maxBody: number): RecordedBody {
  if (!parsed.json) return { text: `(not JSON: ${parsed.bytes} bytes, not kept)`, bytes: parsed.bytes, truncated: false };
  let text: string;
  try {
    text = JSON.stringify(redactor.json(parsed.value)) ?? '';
  } catch {
    text = '(not serializable, not kept)';
  }
  const truncated = text.length > maxBody;
  return { text: truncated ? `${text.slice(0, maxBody)}…` : text, bytes: parsed.bytes, truncated };
}

function errorOf(parsed: ParsedBody): { scimType?: string; detail?: string } {
  if (!parsed.present || parsed.value === null || typeof parsed.value !== 'object') return {};
  const body = parsed.value as Record<string, unknown>;
  const schemas = body['schemas'];
  if (!Array.isArray(schemas) || !schemas.includes('urn:ietf:params:scim:api:messages:2.0:Error')) return {};
  const out: { scimType?: string; detail?: string } = {};
  if (typeof body['scimType'] === 'string') out.scimType = body['scimType'];
  if (typeof body['detail'] === 'string') out.detail = body['detail'].slice(0, 2000);
  return out;
}


/** The userName the request was about: its body's, a changed resource's, or a `userName eq` filter's; under the personal-data policy. */
function userNameOf(recorded: RecordedRequest, body: unknown, filter: string | undefined, redactor: Redactor): string | undefined {
  let userName: string | undefined;
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const key = Object.keys(body).find((k) => k.toLowerCase() === 'username');
    const value = key === undefined ? undefined : (body as Record<string, unknown>)[key];
    if (typeof value === 'string') userName = value;
  }
  for (const change of recorded.changes) {
    if (userName !== undefined) break;
    const value = change.after?.['userName'] ?? change.before?.['userName'];
    if (typeof value === 'string') userName = value;
  }
  if (userName === undefined && filter !== undefined) {
    const match = /\buserName\s+eq\s+"((?:[^"\\]|\\.)*)"/i.exec(filter);
    if (match?.[1] !== undefined && match[1] !== MASKED) userName = match[1];
  }
  if (userName === undefined) return undefined;
  const treatment = redactor.userNameTreatment;
  if (treatment === 'secret') return undefined;
  if (treatment === 'personal' && redactor.policy !== 'keep') {
    redactor.remember(userName);
    return redactor.policy === 'mask' ? MASKED : undefined;
  }
  return userName.slice(0, 256);
}
