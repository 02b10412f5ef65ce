/**
 * One request as the request log keeps it (docs/concepts/console.md): redacted before it is kept,
 * bounded in size. Plain JSON data, the same in memory and in PostgreSQL.
 */
export interface RequestLogRecord {
  /** The log's own id (the request id is the client's to choose, and may repeat). */
  readonly id: string;
  /** The tenant; `''` for the default (single) tenant. */
  readonly tenant: string;
  readonly requestId: string;
  /** When the request arrived, in milliseconds since the epoch. */
  readonly time: number;
  readonly durationMs: number;
  readonly method: string;
  /** Path relative to the SCIM mount point (after a tenant prefix). */
  readonly path: string;
  /** Query parameters, redacted (a filter on a secret or personal attribute has its values masked). */
  readonly query: Readonly<Record<string, string>>;
  readonly status: number;
  readonly scimType?: string;
  readonly detail?: string;
  /** Who called: the principal's name, else a fingerprint of the credential (never the credential). */
  readonly client: string;
  /** The identity provider recognized from the User-Agent (`Microsoft Entra ID`, `Okta`, …). */
  readonly idp?: string;
  readonly userAgent?: string;
  readonly operation?: string;
  readonly resourceType?: string;
  readonly resourceId?: string;
  /** The userName the request was about (body, changed resource or `userName eq` filter), as the personal-data policy allows. */
  readonly userName?: string;
  /** The resources the request created, changed or deleted. */
  readonly changes: readonly RecordedChange[];
  /** Request headers, credentials and cookies replaced by `[redacted]`. */
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly requestBody?: RecordedBody;
  readonly responseBody?: RecordedBody;
  /** For a refused request: the option or profile that would accept this client's shape. */
  readonly hint?: Hint;
}

/** A body as kept: redacted JSON text (compact; the console pretty-prints it), cut at the record's size bound. */
export interface RecordedBody {
  readonly text: string;
  /** Size of the body as received, in bytes. */
  readonly bytes: number;
  /** The text was cut at `maxBodyBytes`. */
  readonly truncated: boolean;
}

/** A resource a request created, changed or deleted. */
export interface RecordedChange {
  readonly operation: 'create' | 'replace' | 'patch' | 'delete';
  readonly resourceType: string;
  readonly id: string;
  /** `meta.version` before the change (absent on create). */
  readonly versionBefore?: string;
  /** `meta.version` after the change (absent on delete). */
  readonly versionAfter?: string;
  /** What changed, attribute by attribute, redacted. */
  readonly diff: readonly DiffEntry[];
  /** More differences than the record keeps. */
  readonly diffTruncated?: boolean;
}

/** One changed value: `before` absent for an added value, `after` absent for a removed one. */
export interface DiffEntry {
  readonly path: string;
  readonly before?: string;
  readonly after?: string;
}

/** What would have accepted a refused request (docs/concepts/console.md, "Hints"). */
export interface Hint {
  /** The compatibility option (`createMissingValuePath`) or configuration setting (`unknownAttributes`). */
  readonly option: string;
  /** The profile that turns the option on, when one does. */
  readonly profile?: 'entra' | 'okta';
  /** One sentence for a person. */
  readonly message: string;
}
