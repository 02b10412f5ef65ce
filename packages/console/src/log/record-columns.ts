import type { DiffEntry, Hint, RecordedChange, RequestLogRecord } from './request-log-record.js';
import { TextArena } from './text-arena.js';

/** The fixed part of a kept record's size in `RecordColumns.bytes` (its slots in the columns). */
const SLOT_BYTES = 200;

/**
 * The texts a record holds for itself (new on every request), kept in one string per record in
 * this order: see `RecordColumns`. Each has its length in `lengths` (-1: absent).
 */
const ID = 0;
const REQUEST_ID = 1;
const PATH = 2;
const RESOURCE_ID = 3;
const USER_NAME = 4;
const SCIM_TYPE = 5;
const DETAIL = 6;
const REQUEST_BODY = 7;
const RESPONSE_BODY = 8;
/** The query parameters as JSON (absent: none). */
const QUERY = 9;
/** The changes (absent: none), see `changesText`. */
const CHANGES = 10;
const TEXTS = 11;

/** Shared by every record read back without changes or query parameters (records are read-only). */
const NO_CHANGES: readonly RecordedChange[] = Object.freeze([]);
const NO_ENTRIES: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The memory log's records, kept column by column (docs/performance.md, "Request log"): numbers in
 * typed arrays, the texts a client repeats (its name, User-Agent, headers) as the shared strings
 * they are, and every text the record holds for itself (its id, request id, path, resource id,
 * userName, bodies, error, query and changes as JSON) in one string per record, cut by lengths kept
 * in a typed array. A kept record is one string, not a graph of a dozen small objects and strings,
 * so the garbage collector copies, promotes and marks one object for each of the thousands of
 * records a ring keeps: that work, on a server's heap and on its collector threads, was most of
 * what the log cost a request. A record read back (`record(at)`) is a new object equal to the one
 * stored.
 */
export class RecordColumns {
  readonly capacity: number;
  /** Each record's own texts, joined (see `TEXTS`), as bytes outside the heap (see `TextArena`). */
  private readonly texts: TextArena;
  /** The length of each of a record's texts in `texts` (-1: absent), `TEXTS` per record. */
  private readonly lengths: Int32Array;
  private readonly tenants: string[];
  private readonly times: Float64Array;
  private readonly durations: Float64Array;
  private readonly methods: string[];
  private readonly statuses: Float64Array;
  private readonly clients: string[];
  private readonly idps: (string | undefined)[];
  private readonly userAgents: (string | undefined)[];
  private readonly operations: (string | undefined)[];
  private readonly resourceTypes: (string | undefined)[];
  private readonly headers: Readonly<Record<string, string>>[];
  /** Request then response body: size, truncated (their texts are in `texts`). */
  private readonly bodyBytes: Float64Array;
  private readonly bodyTruncated: Uint8Array;
  private readonly hints: (Hint | undefined)[];
  private readonly sizes: Float64Array;

  constructor(capacity: number) {
    this.capacity = capacity;
    const strings = <T>(): T[] => new Array<T>(capacity);
    this.texts = new TextArena(capacity);
    this.lengths = new Int32Array(TEXTS * capacity);
    this.tenants = strings();
    this.times = new Float64Array(capacity);
    this.durations = new Float64Array(capacity);
    this.methods = strings();
    this.statuses = new Float64Array(capacity);
    this.clients = strings();
    this.idps = strings();
    this.userAgents = strings();
    this.operations = strings();
    this.resourceTypes = strings();
    this.headers = strings();
    this.bodyBytes = new Float64Array(2 * capacity);
    this.bodyTruncated = new Uint8Array(2 * capacity);
    this.hints = strings();
    this.sizes = new Float64Array(capacity);
  }

  /** Keep `record` in slot `at` (replacing what was there). */
  put(at: number, record: RequestLogRecord): void {
    const first = at * TEXTS;
    this.lengths[first + ID] = record.id.length;
    let text = record.id;
    text = this.add(text, first + REQUEST_ID, record.requestId);
    text = this.add(text, first + PATH, record.path);
    text = this.add(text, first + RESOURCE_ID, record.resourceId);
    text = this.add(text, first + USER_NAME, record.userName);
    text = this.add(text, first + SCIM_TYPE, record.scimType);
    text = this.add(text, first + DETAIL, record.detail);
    text = this.add(text, first + REQUEST_BODY, record.requestBody?.text);
    text = this.add(text, first + RESPONSE_BODY, record.responseBody?.text);
    text = this.add(text, first + QUERY, isEmpty(record.query) ? undefined : JSON.stringify(record.query));
    text = this.add(text, first + CHANGES, record.changes.length === 0 ? undefined : changesText(record.changes));
    // Copied into the arena as bytes: the string (a `+` chain) dies young.
    this.texts.put(at, text);
    this.tenants[at] = record.tenant;
    this.times[at] = record.time;
    this.durations[at] = record.durationMs;
    this.methods[at] = record.method;
    this.statuses[at] = record.status;
    this.clients[at] = record.client;
    this.idps[at] = record.idp;
    this.userAgents[at] = record.userAgent;
    this.operations[at] = record.operation;
    this.resourceTypes[at] = record.resourceType;
    this.headers[at] = record.requestHeaders;
    this.bodyBytes[2 * at] = record.requestBody?.bytes ?? 0;
    this.bodyTruncated[2 * at] = record.requestBody?.truncated === true ? 1 : 0;
    this.bodyBytes[2 * at + 1] = record.responseBody?.bytes ?? 0;
    this.bodyTruncated[2 * at + 1] = record.responseBody?.truncated === true ? 1 : 0;
    this.hints[at] = record.hint;
    this.sizes[at] = SLOT_BYTES + text.length + (record.userAgent?.length ?? 0);
  }

  /** `text` and `value` after it, its length at `index` of `lengths` (-1: absent). */
  private add(text: string, index: number, value: string | undefined): string {
    if (value === undefined) {
      this.lengths[index] = -1;
      return text;
    }
    this.lengths[index] = value.length;
    return text + value;
  }

  /** Forget slot `at`. */
  clear(at: number): void {
    this.texts.clear(at);
    this.hints[at] = undefined;
    this.userAgents[at] = undefined;
    this.sizes[at] = 0;
  }

  has(at: number): boolean {
    return this.texts.has(at);
  }

  id(at: number): string | undefined {
    return this.text(at, ID);
  }

  tenant(at: number): string {
    return this.tenants[at] as string;
  }

  time(at: number): number {
    return this.times[at] as number;
  }

  status(at: number): number {
    return this.statuses[at] as number;
  }

  client(at: number): string {
    return this.clients[at] as string;
  }

  idp(at: number): string | undefined {
    return this.idps[at];
  }

  userAgent(at: number): string | undefined {
    return this.userAgents[at];
  }

  /** About how many bytes the record in slot `at` holds: its strings' characters and its slots. */
  bytes(at: number): number {
    return this.sizes[at] as number;
  }

  /** One of the record's own texts (see `TEXTS`), `undefined` when absent or the slot is empty. */
  private text(at: number, field: number): string | undefined {
    return this.textOf(this.texts.get(at), at, field);
  }

  /** One of the texts of `text`, the joined texts of slot `at`. */
  private textOf(text: string | undefined, at: number, field: number): string | undefined {
    if (text === undefined) return undefined;
    const first = at * TEXTS;
    let start = 0;
    for (let f = 0; f < field; f++) {
      const length = this.lengths[first + f] as number;
      if (length > 0) start += length;
    }
    const length = this.lengths[first + field] as number;
    return length < 0 ? undefined : text.slice(start, start + length);
  }

  /** The record in slot `at`, as it was stored (a new object). */
  record(at: number): RequestLogRecord {
    const joined = this.texts.get(at);
    const texts: (string | undefined)[] = [];
    for (let f = 0; f < TEXTS; f++) texts.push(this.textOf(joined, at, f));
    const query = texts[QUERY];
    const changes = texts[CHANGES];
    const record: { -readonly [K in keyof RequestLogRecord]: RequestLogRecord[K] } = {
      id: texts[ID] as string,
      tenant: this.tenants[at] as string,
      requestId: texts[REQUEST_ID] as string,
      time: this.times[at] as number,
      durationMs: this.durations[at] as number,
      method: this.methods[at] as string,
      path: texts[PATH] as string,
      query: query === undefined ? NO_ENTRIES : (JSON.parse(query) as Record<string, string>),
      status: this.statuses[at] as number,
      client: this.clients[at] as string,
      changes: changes === undefined ? NO_CHANGES : readChanges(changes),
      requestHeaders: this.headers[at] as Readonly<Record<string, string>>,
    };
    const scimType = texts[SCIM_TYPE];
    const detail = texts[DETAIL];
    const idp = this.idps[at];
    const userAgent = this.userAgents[at];
    const operation = this.operations[at];
    const resourceType = this.resourceTypes[at];
    const resourceId = texts[RESOURCE_ID];
    const userName = texts[USER_NAME];
    const hint = this.hints[at];
    if (scimType !== undefined) record.scimType = scimType;
    if (detail !== undefined) record.detail = detail;
    if (idp !== undefined) record.idp = idp;
    if (userAgent !== undefined) record.userAgent = userAgent;
    if (operation !== undefined) record.operation = operation;
    if (resourceType !== undefined) record.resourceType = resourceType;
    if (resourceId !== undefined) record.resourceId = resourceId;
    if (userName !== undefined) record.userName = userName;
    const requestBody = texts[REQUEST_BODY];
    const responseBody = texts[RESPONSE_BODY];
    if (requestBody !== undefined) record.requestBody = { text: requestBody, bytes: this.bodyBytes[2 * at] as number, truncated: this.bodyTruncated[2 * at] === 1 };
    if (responseBody !== undefined) record.responseBody = { text: responseBody, bytes: this.bodyBytes[2 * at + 1] as number, truncated: this.bodyTruncated[2 * at + 1] === 1 };
    if (hint !== undefined) record.hint = hint;
    return record;
  }
}


/** Separates the items of a record's changes (see `changesText`). */
const ITEM = '\u0000';

/**
 * A record's changes as text: each item (operation, resource
 * type, id, versions, truncation, diff length, then each entry's path, before and after) as
 * `ITEM`, a tag (`s` string, `u` absent, `t`/`f` a flag, `n` a count) and the value, a few dozen
 * characters joined with the rest (`JSON.stringify` of the same changes cost several times more).
 * A text holding `ITEM` itself (no JSON text does) makes them JSON (`J` first).
 */
function changesText(changes: readonly RecordedChange[]): string {
  const parts = ['F'];
  let plain = true;
  for (const change of changes) {
    plain = stringItem(parts, change.operation) && stringItem(parts, change.resourceType) && stringItem(parts, change.id) && stringItem(parts, change.versionBefore) && stringItem(parts, change.versionAfter) && plain;
    parts.push(change.diffTruncated === undefined ? `${ITEM}u` : change.diffTruncated ? `${ITEM}t` : `${ITEM}f`, `${ITEM}n`, `${change.diff.length}`);
    for (const entry of change.diff) plain = stringItem(parts, entry.path) && stringItem(parts, entry.before) && stringItem(parts, entry.after) && plain;
  }
  return plain ? parts.join('') : `J${JSON.stringify(changes)}`;
}

/** Push one string item (see `changesText`); false when the text holds `ITEM`. */
function stringItem(parts: string[], value: string | undefined): boolean {
  if (value === undefined) {
    parts.push(`${ITEM}u`);
    return true;
  }
  parts.push(`${ITEM}s`, value);
  return !value.includes(ITEM);
}

/** The changes `changesText` kept. */
function readChanges(text: string): RecordedChange[] {
  if (text.startsWith('J')) return JSON.parse(text.slice(1)) as RecordedChange[];
  const items = text.slice(1 + ITEM.length).split(ITEM);
  const value = (i: number): string | undefined => {
    const item = items[i] as string;
    return item.startsWith('s') ? item.slice(1) : undefined;
  };
  const changes: RecordedChange[] = [];
  let i = 0;
  while (i < items.length) {
    const change: { -readonly [K in keyof RecordedChange]: RecordedChange[K] } = {
      operation: value(i) as RecordedChange['operation'],
      resourceType: value(i + 1) as string,
      id: value(i + 2) as string,
      diff: [],
    };
    const versionBefore = value(i + 3);
    const versionAfter = value(i + 4);
    const truncated = items[i + 5];
    const count = Number((items[i + 6] as string).slice(1));
    i += 7;
    const diff: DiffEntry[] = [];
    for (let n = 0; n < count; n++, i += 3) {
      const entry: { path: string; before?: string; after?: string } = { path: value(i) as string };
      const before = value(i + 1);
      const after = value(i + 2);
      if (before !== undefined) entry.before = before;
      if (after !== undefined) entry.after = after;
      diff.push(entry);
    }
    change.diff = diff;
    if (versionBefore !== undefined) change.versionBefore = versionBefore;
    if (versionAfter !== undefined) change.versionAfter = versionAfter;
    if (truncated !== 'u') change.diffTruncated = truncated === 't';
    changes.push(change);
  }
  return changes;
}

function isEmpty(entries: Readonly<Record<string, string>>): boolean {
  for (const _ in entries) return false;
  return true;
}
