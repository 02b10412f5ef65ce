import type { RecordedRequest } from '@scimkit/core';
import { recordChange } from './diff-resources.js';
import { hintFor } from './hint-for.js';
import { clientOf, identityProviderOf } from './identify-client.js';
import { MASKED, REDACTED, SECRET_NAME } from './redaction-options.js';
import { Redactor, type RedactionPolicy, type RemovedValues } from './redactor.js';
import type { DiffEntry, RecordedChange, RequestLogRecord } from './request-log-record.js';

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

/**
 * What a log remembers between records (one per log, bounded): a client repeats its headers,
 * credential and User-Agent on every request, so each is examined once.
 */
export interface RecordCaches {
  /** Header name (lower-cased) → whether it holds a credential. */
  readonly secretHeaders: Map<string, boolean>;
  /** Credential header value → the parts of it to scrub from every text of the record. */
  readonly credentialParts: Map<string, readonly string[]>;
  /** Removed value → the forms it may take in text (see `Redactor`). */
  readonly forms: Map<string, readonly string[]>;
  /** User-Agent → the identity provider it names. */
  readonly providers: Map<string, string | undefined>;
  /** User-Agent → the one copy of it that records keep (each HTTP request brings its own). */
  readonly userAgents: Map<string, string>;
  /** Authorization value → the client it stands for (`token 1a2b3c4d`). */
  readonly clients: Map<string, string>;
  /**
   * The kept headers of the last record (see `sameAsLast`), and the last request's header values
   * with what they gave (see `headerPartOf`): its credential too, as `credentialParts` holds it, in
   * the log's memory and never in a record.
   */
  readonly last: { headers?: Readonly<Record<string, string>>; request?: LastHeaders };
}

export function createRecordCaches(): RecordCaches {
  return { secretHeaders: new Map(), credentialParts: new Map(), forms: new Map(), providers: new Map(), userAgents: new Map(), clients: new Map(), last: {} };
}

/**
 * What a record takes from its request's headers. A client sends the same headers on every
 * request: for the same names and values in the same order the log reuses it whole (see
 * `headerPartOf`), examining, scrubbing and copying nothing.
 */
interface HeaderPart {
  /** The kept headers, a credential as `[redacted]`, scrubbed of the credential (frozen, shared). */
  readonly headers: Readonly<Record<string, string>>;
  /** The credential's parts as removed values, with their forms (see `Redactor.adopt`). */
  readonly removed: RemovedValues;
  readonly authorization?: string;
  /** The User-Agent as received (cut at 2,000 characters). */
  readonly userAgent?: string;
  /** The User-Agent as the record keeps it: cut at 300 characters, scrubbed of the credential, one copy per log. */
  readonly keptUserAgent?: string;
  readonly idp?: string;
  /** The client text of the last record with these headers, and its scrubbed form. */
  client?: { readonly text: string; readonly scrubbed: string };
}

/** The last request's headers, name by name, and what they gave. */
interface LastHeaders {
  readonly names: readonly string[];
  readonly values: readonly unknown[];
  readonly part: HeaderPart;
}

/** What `headers` give a record: the last request's when they are the same names and values in the same order. */
function headerPartOf(headers: Readonly<Record<string, unknown>>, caches: RecordCaches): HeaderPart {
  const last = caches.last.request;
  if (last !== undefined) {
    const { names, values } = last;
    let i = 0;
    let same = true;
    for (const name in headers) {
      if (names[i] !== name || values[i] !== headers[name]) {
        same = false;
        break;
      }
      i++;
    }
    if (same && i === names.length) return last.part;
  }
  const names: string[] = [];
  const values: unknown[] = [];
  const kept: Record<string, string> = {};
  const credentials: string[] = [];
  let authorization: string | undefined;
  let userAgent: string | undefined;
  for (const name in headers) {
    const raw = headers[name];
    names.push(name);
    values.push(raw);
    if (raw === undefined) continue;
    const value = typeof raw === 'string' ? (raw.length > 2000 ? raw.slice(0, 2000) : raw) : (Array.isArray(raw) ? raw.join(', ') : String(raw)).slice(0, 2000);
    const lower = name.toLowerCase();
    if (lower === 'authorization') authorization = value;
    else if (lower === 'user-agent') userAgent = value;
    if (cached(caches.secretHeaders, lower, isSecretHeader)) {
      for (const part of cached(caches.credentialParts, value, credentialParts)) credentials.push(part);
      kept[lower] = REDACTED;
    } else if (KEPT_HEADERS.has(lower)) kept[lower] = value;
  }
  const removed = Redactor.removedValues(credentials, caches.forms);
  const redactor = new Redactor({ policy: 'keep', personal: new Set(), secrets: new Set() }, caches.forms);
  redactor.adopt(removed);
  const part: { -readonly [K in keyof HeaderPart]: HeaderPart[K] } = { headers: sameAsLast(caches, redactor.scrubEntries(kept)), removed };
  if (authorization !== undefined) part.authorization = authorization;
  if (userAgent !== undefined) {
    part.userAgent = userAgent;
    const scrubbed = redactor.scrub(userAgent.slice(0, 300));
    part.keptUserAgent = scrubbed === userAgent ? cached(caches.userAgents, scrubbed, (value) => value) : scrubbed;
    const idp = userAgent === '' ? undefined : cached(caches.providers, userAgent, identityProviderOf);
    if (idp !== undefined) part.idp = idp;
  }
  caches.last.request = { names, values, part };
  return part;
}

/** Most entries of each cache; past it the cache starts over (bounded whatever the clients send). */
const CACHE_ENTRIES = 1000;

export function cached<K, V>(cache: Map<K, V>, key: K, compute: (key: K) => V): V {
  if (cache.has(key)) return cache.get(key) as V;
  const value = compute(key);
  if (cache.size >= CACHE_ENTRIES) cache.clear();
  cache.set(key, value);
  return value;
}

function isSecretHeader(lower: string): boolean {
  return SECRET_NAME.test(lower) || lower.startsWith('x-api') || lower.startsWith('proxy-auth');
}

/** The parts of a credential header's value to scrub: the whole value and each word but the scheme. */
function credentialParts(value: string): readonly string[] {
  const parts = [value];
  for (const part of value.split(/[\s,;=]+/)) if (!/^(bearer|basic|digest|token|dpop)$/i.test(part)) parts.push(part);
  return parts;
}

/** Methods that write. */
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Methods whose body the server reads as JSON. */
const READ_AS_JSON = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The record the log keeps of one answered request: everything redacted (docs/concepts/console.md,
 * "Redaction"): credentials and secrets never kept, personal values per the policy, every removed
 * value also scrubbed from free text, bodies cut at `maxBodyBytes`.
 *
 * Cheap by design (it runs for every request, after the answer): a body in which no secret name,
 * no configured field and no JSON escape occurs is kept as the client's text, neither parsed nor
 * copied (nothing in it can need redaction); it is parsed only when redaction, a hint or its
 * `userName` needs the value.
 */
export function buildRecord(recorded: RecordedRequest, id: string, redaction: RedactionPolicy, limits: RecordLimits, clientName?: (recorded: RecordedRequest) => string | undefined, caches: RecordCaches = createRecordCaches()): RequestLogRecord {
  const redactor = new Redactor(redaction, caches.forms);
  const maxBody = limits.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const { request, response } = recorded;
  const method = typeof request.method === 'string' ? request.method.toUpperCase() : '';

  // Credentials first, so their values are scrubbed from everything after. Only the headers that
  // explain a SCIM exchange are kept; a credential is kept as the fact that it was sent.
  const fromHeaders = headerPartOf(request.headers ?? {}, caches);
  redactor.adopt(fromHeaders.removed);
  const { authorization } = fromHeaders;

  const failed = response.status >= 400;
  // The body of an accepted POST, PUT or PATCH was read as JSON by the server: it may be kept as
  // its text when nothing in it needs redaction. Any other body is parsed (a hint needs it).
  const requestBody = bodyOf(redactor, request.body, maxBody, failed || !READ_AS_JSON.has(method), recorded.requestBodyText);
  const keepResponse = failed || (limits.responseBodies === 'writes' && WRITES.has(method));
  const responseBody = keepResponse ? bodyOf(redactor, response.body, maxBody, true) : undefined;
  const error = errorOf(responseBody?.value);
  let changes: RecordedChange[] | undefined;
  for (const change of recorded.changes) (changes ??= []).push(recordChange(change, redactor));

  // Made for the first parameter (most requests have none).
  let query: Record<string, string> = NO_ENTRIES;
  const rawQuery = request.query ?? NO_ENTRIES;
  for (const name in rawQuery) {
    const value = (rawQuery as Record<string, string | readonly string[] | undefined>)[name];
    if (value === undefined) continue;
    if (query === NO_ENTRIES) query = {};
    const text = Array.isArray(value) ? value.join(',') : String(value);
    if (SECRET_NAME.test(name)) {
      redactor.remember(text);
      query[name] = REDACTED;
    } else query[name] = /filter/i.test(name) ? redactor.filterText(text) : text;
  }

  const userName = userNameOf(recorded, requestBody?.value, query['filter'] ?? (typeof rawQuery['filter'] === 'string' ? rawQuery['filter'] : undefined), redactor);
  const idp = fromHeaders.idp;
  const named = clientName?.(recorded);
  const unscrubbed = named ?? (authorization !== undefined && !hasPrincipalName(recorded.principal) ? cached(caches.clients, authorization, clientOfCredential) : clientOf(recorded.principal, authorization));
  // Scrubbed of the credential alone as long as nothing else was removed: the same client text on
  // every request of a client, scrubbed once.
  const onlyCredential = redactor.onlyAdopted(fromHeaders.removed);
  let client: string;
  if (!onlyCredential) client = redactor.scrub(unscrubbed);
  else if (fromHeaders.client !== undefined && fromHeaders.client.text === unscrubbed) client = fromHeaders.client.scrubbed;
  else fromHeaders.client = { text: unscrubbed, scrubbed: (client = redactor.scrub(unscrubbed)) };
  const hint = failed ? hintFor(recorded, requestBody?.value, error.scimType, error.detail) : undefined;

  const record: { -readonly [K in keyof RequestLogRecord]: RequestLogRecord[K] } = {
    id,
    tenant: recorded.tenant ?? '',
    requestId: redactor.scrub(recorded.requestId),
    time: Math.round(recorded.startedAt),
    durationMs: Math.round(recorded.durationMs * 1000) / 1000,
    method,
    path: redactor.scrub(recorded.path),
    query: query === NO_ENTRIES ? NO_ENTRIES : redactor.scrubEntries(query),
    status: response.status,
    client,
    changes: changes === undefined ? NO_CHANGES : redactor.scrubs ? scrubChanges(redactor, changes) : changes,
    requestHeaders: onlyCredential ? fromHeaders.headers : sameAsLast(caches, redactor.scrubEntries({ ...fromHeaders.headers })),
  };
  if (error.scimType !== undefined) record.scimType = error.scimType;
  if (error.detail !== undefined) record.detail = redactor.scrub(error.detail);
  if (idp !== undefined) record.idp = idp;
  if (fromHeaders.userAgent !== undefined) record.userAgent = onlyCredential ? (fromHeaders.keptUserAgent as string) : redactor.scrub(fromHeaders.keptUserAgent as string);
  if (recorded.operation !== undefined) record.operation = recorded.operation;
  if (recorded.resourceType !== undefined) record.resourceType = recorded.resourceType;
  if (recorded.resourceId !== undefined) record.resourceId = redactor.scrub(recorded.resourceId);
  if (userName !== undefined) record.userName = userName;
  if (requestBody !== undefined) {
    const text = redactor.scrub(requestBody.text);
    // The body `cut` made (no parsed value in it) is the record's own when scrubbing left it alone.
    record.requestBody = text === requestBody.text && !('value' in requestBody) ? requestBody : { text, bytes: requestBody.bytes, truncated: requestBody.truncated };
  }
  if (responseBody !== undefined) record.responseBody = { text: redactor.scrub(responseBody.text), bytes: responseBody.bytes, truncated: responseBody.truncated };
  if (hint !== undefined) record.hint = hint;
  return record;
}

/** Shared by every record that has none (records are read-only: fewer objects kept per record). */
const NO_ENTRIES: Record<string, string> = Object.freeze({}) as Record<string, string>;
const NO_CHANGES: readonly RecordedChange[] = Object.freeze([]);

/**
 * The kept headers of the previous record when these are the same (a client sends the same
 * headers on every request): records share one frozen object instead of keeping a copy each.
 */
function sameAsLast(caches: RecordCaches, headers: Record<string, string>): Readonly<Record<string, string>> {
  const last = caches.last.headers;
  if (last !== undefined) {
    let same = true;
    let count = 0;
    for (const name in headers) {
      count++;
      if (last[name] !== headers[name]) {
        same = false;
        break;
      }
    }
    if (same) {
      for (const _ in last) count--;
      if (count === 0) return last;
    }
  }
  caches.last.headers = Object.freeze(headers);
  return caches.last.headers;
}

/** The client a credential stands for, without a principal's name. */
function clientOfCredential(authorization: string): string {
  return clientOf(undefined, authorization);
}

/** Whether `clientOf` would name the client after the principal (else after the credential). */
function hasPrincipalName(principal: unknown): boolean {
  return principal !== undefined && principal !== null && principal !== '';
}

/** The changes with every removed value scrubbed from their diffs; the same array when there was nothing to scrub (the usual case). */
function scrubChanges(redactor: Redactor, changes: RecordedChange[]): RecordedChange[] {
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i] as RecordedChange;
    const scrubbed = scrubChange(redactor, change);
    // Built for this record alone (by `recordChange`): replaced in place.
    if (scrubbed !== change) changes[i] = scrubbed;
  }
  return changes;
}

/** A change with every removed value scrubbed from its diff; the same object when there was nothing to scrub (the usual case). */
function scrubChange(redactor: Redactor, change: RecordedChange): RecordedChange {
  let diff: DiffEntry[] | undefined;
  for (let i = 0; i < change.diff.length; i++) {
    const d = change.diff[i] as DiffEntry;
    const path = redactor.scrub(d.path);
    const before = d.before === undefined ? undefined : redactor.scrub(d.before);
    const after = d.after === undefined ? undefined : redactor.scrub(d.after);
    if (diff === undefined && path === d.path && before === d.before && after === d.after) continue;
    diff ??= change.diff.slice(0, i);
    const entry: { path: string; before?: string; after?: string } = { path };
    if (before !== undefined) entry.before = before;
    if (after !== undefined) entry.after = after;
    diff.push(entry);
  }
  return diff === undefined ? change : { ...change, diff };
}

/** A body as the record keeps it, and its value when it was parsed (`undefined`: not JSON, or not needed). */
interface KeptBody {
  readonly text: string;
  readonly bytes: number;
  readonly truncated: boolean;
  readonly value?: unknown;
}

/** JSON escapes (`\u0070assword` spells a secret's name) or a name that may hold a secret. */
const MAY_NEED_REDACTION = /\\u|pass|pwd|secret|token|credential|api[-_]?key|private[-_]?key|authorization|cookie|session/i;

/**
 * A body as kept: redacted JSON text, cut; a body that is not JSON is not kept at all (it could
 * hold anything). Without `parse` the body is known to be JSON (the server accepted it as such) and
 * its value is not needed unless it has a `userName`. `decoded`: the text the server decoded from
 * the bytes, when it did.
 */
function bodyOf(redactor: Redactor, body: unknown, maxBody: number, parse: boolean, decoded?: string): KeptBody | undefined {
  if (body === undefined || body === null || body === '') return undefined;
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) {
    // A framework's body parser already made it a value.
    let bytes = 0;
    try {
      bytes = Buffer.byteLength(JSON.stringify(body) ?? '');
    } catch {
      bytes = 0;
    }
    return { ...redactedText(redactor, body, maxBody), bytes, value: body };
  }
  // Bytes: the text the server decoded (`RecordedRequest.requestBodyText`), else decoded here as
  // UTF-8 (a Buffer, as `@scimkit/node` hands it, in place, without a second view of its bytes).
  const text = typeof body === 'string' ? body : decoded !== undefined ? decoded : Buffer.isBuffer(body) ? body.toString() : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  const bytes = typeof body === 'string' ? (isAscii(body) ? body.length : Buffer.byteLength(body)) : body.byteLength;
  if (bytes === 0) return undefined;
  const plain = !MAY_NEED_REDACTION.test(text) && !redactor.mayName(text);
  if (plain && !parse && !USER_NAME.test(text)) return cut(text, bytes, maxBody);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return notJson(bytes);
  }
  if (plain) return { ...cut(text, bytes, maxBody), value };
  return { ...redactedText(redactor, value, maxBody), bytes, value };
}

/** Mentions `userName` (its value is read for the record). */
const USER_NAME = /username/i;

function isAscii(text: string): boolean {
  return !/[^\x00-\x7f]/.test(text);
}

function notJson(bytes: number): KeptBody {
  return { text: `(not JSON: ${bytes} bytes, not kept)`, bytes, truncated: false };
}

function cut(text: string, bytes: number, maxBody: number): KeptBody {
  const truncated = text.length > maxBody;
  return { text: truncated ? `${text.slice(0, maxBody)}…` : text, bytes, truncated };
}

function redactedText(redactor: Redactor, value: unknown, maxBody: number): { text: string; truncated: boolean } {
  let text: string;
  try {
    text = JSON.stringify(redactor.json(value)) ?? '';
  } catch {
    text = '(not serializable, not kept)';
  }
  const truncated = text.length > maxBody;
  return { text: truncated ? `${text.slice(0, maxBody)}…` : text, truncated };
}

/** What `errorOf` gives a body that is not a SCIM error (shared: read only). */
const NO_ERROR: { readonly scimType?: string; readonly detail?: string } = Object.freeze({});

function errorOf(value: unknown): { readonly scimType?: string; readonly detail?: string } {
  if (value === null || typeof value !== 'object') return NO_ERROR;
  const body = value as Record<string, unknown>;
  const schemas = body['schemas'];
  if (!Array.isArray(schemas) || !schemas.includes('urn:ietf:params:scim:api:messages:2.0:Error')) return NO_ERROR;
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
