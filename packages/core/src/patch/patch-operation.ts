/** The three SCIM PATCH operations (RFC 7644 §3.5.2). */
export type PatchOpName = 'add' | 'replace' | 'remove';

/** One validated entry of `Operations`, before its path is resolved against the schema. */
export interface PatchOperation {
  /** 0-based position in `Operations`, for error details. */
  readonly index: number;
  readonly op: PatchOpName;
  /** The raw `path` text; absent when the client gave none (or `null`). */
  readonly path?: string;
  /** True when the operation carries a `value` member (even `null`). */
  readonly hasValue: boolean;
  readonly value: unknown;
}
