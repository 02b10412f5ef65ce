import type { DiffEntry, Hint, RecordedChange, RequestLogRecord } from './request-log-record.js';

/** The fixed part of a kept record's size in `RecordColumns.bytes` (its slots in the columns). */
const SLOT_BYTES = 200;

/** A change, flattened: operation, resourceType, id, versionBefore, versionAfter, diffTruncated, entry count, then path, before, after per entry. */
const CHANGE_FIELDS = 7;

/** Shared by every record read back without changes or query parameters (records are read-only). */
const NO_CHANGES: readonly RecordedChange[] = Object.freeze([]);

/**
 * The memory log's records, kept column by column (docs/performance.md, "Request log"): each field
 * in an array of its own, numbers in typed arrays, a record's changes flattened into one array. A
 * kept record is its strings and at most one array, not a graph of a dozen small objects (record,
 * property arrays, boxed numbers, bodies, changes, diffs), so the garbage collector copies, promotes
 * and marks a fraction of what it did for each of the thousands of records a ring keeps: that work,
 * on a server's heap and on its collector threads, was most of what the log cost a request over
 * HTTP. A record read back (`record(at)`) is a new object equal to the one stored.
 */
export class RecordColumns {
  readonly capacity: number;
  private readonly ids: (string | undefined)[];
  private readonly tenants: string[];
  private readonly requestIds: string[];
  private readonly times: Float64Array;
  private readonly durations: Float64Array;
  private readonly methods: string[];
  private readonly paths: string[];
  private readonly queries: Readonly<Record<string, string>>[];
  private readonly statuses: Float64Array;
  private readonly scimTypes: (string | undefined)[];
  private readonly details: (string | undefined)[];
  private readonly clients: string[];
  private readonly idps: (string | undefined)[];
  private readonly userAgents: (string | undefined)[];
  private readonly operations: (string | undefined)[];
  private readonly resourceTypes: (string | undefined)[];
  private readonly resourceIds: (string | undefined)[];
  private readonly userNames: (string | undefined)[];
  private readonly changes: (readonly unknown[] | undefined)[];
  private readonly headers: Readonly<Record<string, string>>[];
  /** Request then response body: text (`undefined`: no body), size, truncated. */
  private readonly bodyTexts: (string | undefined)[];
  private readonly bodyBytes: Float64Array;
  private readonly bodyTruncated: Uint8Array;
  private readonly hints: (Hint | undefined)[];
  private readonly sizes: Float64Array;

  constructor(capacity: number) {
    this.capacity = capacity;
    const strings = <T>(): T[] => new Array<T>(capacity);
    this.ids = strings();
    this.tenants = strings();
    this.requestIds = strings();
    this.times = new Float64Array(capacity);
    this.durations = new Float64Array(capacity);
    this.methods = strings();
    this.paths = strings();
    this.queries = strings();
    this.statuses = new Float64Array(capacity);
    this.scimTypes = strings();
    this.details = strings();
    this.clients = strings();
    this.idps = strings();
    this.userAgents = strings();
    this.operations = strings();
    this.resourceTypes = strings();
    this.resourceIds = strings();
    this.userNames = strings();
    this.changes = strings();
    this.headers = strings();
    this.bodyTexts = new Array<string | undefined>(2 * capacity);
    this.bodyBytes = new Float64Array(2 * capacity);
    this.bodyTruncated = new Uint8Array(2 * capacity);
    this.hints = strings();
    this.sizes = new Float64Array(capacity);
  }

  /** Keep `record` in slot `at` (replacing what was there). */
  put(at: number, record: RequestLogRecord): void {
    this.ids[at] = record.id;
    this.tenants[at] = record.tenant;
    this.requestIds[at] = record.requestId;
    this.times[at] = record.time;
    this.durations[at] = record.durationMs;
    this.methods[at] = record.method;
    this.paths[at] = record.path;
    this.queries[at] = record.query;
    this.statuses[at] = record.status;
    this.scimTypes[at] = record.scimType;
    this.details[at] = record.detail;
    this.clients[at] = record.client;
    this.idps[at] = record.idp;
    this.userAgents[at] = record.userAgent;
    this.operations[at] = record.operation;
    this.resourceTypes[at] = record.resourceType;
    this.resourceIds[at] = record.resourceId;
    this.userNames[at] = record.userName;
    const changes = record.changes.length === 0 ? undefined : flattenChanges(record.changes);
    this.changes[at] = changes;
    this.headers[at] = record.requestHeaders;
    this.bodyTexts[2 * at] = record.requestBody?.text;
    this.bodyBytes[2 * at] = record.requestBody?.bytes ?? 0;
    this.bodyTruncated[2 * at] = record.requestBody?.truncated === true ? 1 : 0;
    this.bodyTexts[2 * at + 1] = record.responseBody?.text;
    this.bodyBytes[2 * at + 1] = record.responseBody?.bytes ?? 0;
    this.bodyTruncated[2 * at + 1] = record.responseBody?.truncated === true ? 1 : 0;
    this.hints[at] = record.hint;
    this.sizes[at] = sizeOf(record, changes);
  }

  /** Forget slot `at`. */
  clear(at: number): void {
    this.ids[at] = undefined;
    this.changes[at] = undefined;
    this.bodyTexts[2 * at] = undefined;
    this.bodyTexts[2 * at + 1] = undefined;
    this.hints[at] = undefined;
    this.scimTypes[at] = this.details[at] = this.userAgents[at] = this.resourceIds[at] = this.userNames[at] = undefined;
    this.sizes[at] = 0;
  }

  has(at: number): boolean {
    return this.ids[at] !== undefined;
  }

  id(at: number): string | undefined {
    return this.ids[at];
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

  /** The record in slot `at`, as it was stored (a new object). */
  record(at: number): RequestLogRecord {
    const changes = this.changes[at];
    const record: { -readonly [K in keyof RequestLogRecord]: RequestLogRecord[K] } = {
      id: this.ids[at] as string,
      tenant: this.tenants[at] as string,
      requestId: this.requestIds[at] as string,
      time: this.times[at] as number,
      durationMs: this.durations[at] as number,
      method: this.methods[at] as string,
      path: this.paths[at] as string,
      query: this.queries[at] as Readonly<Record<string, string>>,
      status: this.statuses[at] as number,
      client: this.clients[at] as string,
      changes: changes === undefined ? NO_CHANGES : unflattenChanges(changes),
      requestHeaders: this.headers[at] as Readonly<Record<string, string>>,
    };
    const scimType = this.scimTypes[at];
    const detail = this.details[at];
    const idp = this.idps[at];
    const userAgent = this.userAgents[at];
    const operation = this.operations[at];
    const resourceType = this.resourceTypes[at];
    const resourceId = this.resourceIds[at];
    const userName = this.userNames[at];
    const hint = this.hints[at];
    if (scimType !== undefined) record.scimType = scimType;
    if (detail !== undefined) record.detail = detail;
    if (idp !== undefined) record.idp = idp;
    if (userAgent !== undefined) record.userAgent = userAgent;
    if (operation !== undefined) record.operation = operation;
    if (resourceType !== undefined) record.resourceType = resourceType;
    if (resourceId !== undefined) record.resourceId = resourceId;
    if (userName !== undefined) record.userName = userName;
    for (const [side, key] of [[0, 'requestBody'], [1, 'responseBody']] as const) {
      const text = this.bodyTexts[2 * at + side];
      if (text !== undefined) record[key] = { text, bytes: this.bodyBytes[2 * at + side] as number, truncated: this.bodyTruncated[2 * at + side] === 1 };
    }
    if (hint !== undefined) record.hint = hint;
    return record;
  }
}

/** The changes as one array of strings and counts (see `CHANGE_FIELDS`), exactly as long as it needs. */
function flattenChanges(changes: readonly RecordedChange[]): readonly unknown[] {
  let length = 0;
  for (const change of changes) length += CHANGE_FIELDS + 3 * change.diff.length;
  const flat = new Array<unknown>(length);
  let i = 0;
  for (const change of changes) {
    flat[i++] = change.operation;
    flat[i++] = change.resourceType;
    flat[i++] = change.id;
    flat[i++] = change.versionBefore;
    flat[i++] = change.versionAfter;
    flat[i++] = change.diffTruncated;
    flat[i++] = change.diff.length;
    for (const entry of change.diff) {
      flat[i++] = entry.path;
      flat[i++] = entry.before;
      flat[i++] = entry.after;
    }
  }
  return flat;
}

function unflattenChanges(flat: readonly unknown[]): RecordedChange[] {
  const changes: RecordedChange[] = [];
  let i = 0;
  while (i < flat.length) {
    const change: { -readonly [K in keyof RecordedChange]: RecordedChange[K] } = {
      operation: flat[i] as RecordedChange['operation'],
      resourceType: flat[i + 1] as string,
      id: flat[i + 2] as string,
      diff: [],
    };
    const versionBefore = flat[i + 3] as string | undefined;
    const versionAfter = flat[i + 4] as string | undefined;
    const truncated = flat[i + 5] as boolean | undefined;
    const count = flat[i + 6] as number;
    i += CHANGE_FIELDS;
    const diff: DiffEntry[] = [];
    for (let n = 0; n < count; n++, i += 3) {
      const entry: { path: string; before?: string; after?: string } = { path: flat[i] as string };
      const before = flat[i + 1] as string | undefined;
      const after = flat[i + 2] as string | undefined;
      if (before !== undefined) entry.before = before;
      if (after !== undefined) entry.after = after;
      diff.push(entry);
    }
    change.diff = diff;
    if (versionBefore !== undefined) change.versionBefore = versionBefore;
    if (versionAfter !== undefined) change.versionAfter = versionAfter;
    if (truncated !== undefined) change.diffTruncated = truncated;
    changes.push(change);
  }
  return changes;
}

/** About how many bytes a record holds: the characters of its own strings, plus its slots. */
function sizeOf(record: RequestLogRecord, changes: readonly unknown[] | undefined): number {
  let size = SLOT_BYTES + record.id.length + record.requestId.length + record.path.length + (record.detail?.length ?? 0) + (record.userAgent?.length ?? 0) + (record.requestBody?.text.length ?? 0) + (record.responseBody?.text.length ?? 0);
  if (changes !== undefined) for (const value of changes) size += typeof value === 'string' ? value.length + 8 : 8;
  for (const name in record.query) size += name.length + (record.query[name] as string).length;
  return size;
}
