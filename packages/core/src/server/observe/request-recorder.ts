import type { CompatibilityOptions, ChangeEvent } from '../config/scim-server-config.js';
import type { ScimRequest, ScimResponse } from '../request/scim-request.js';

/**
 * One answered request as a request log receives it (docs/concepts/console.md): the request and
 * response exactly as `handle()` saw and answered them, unredacted. The recorder owns redaction:
 * it must drop secrets before it keeps anything.
 */
export interface RecordedRequest {
  readonly requestId: string;
  /** When `handle()` was called, in milliseconds since the epoch. */
  readonly startedAt: number;
  readonly durationMs: number;
  /** The request as the adapter handed it (headers, query and body raw). */
  readonly request: ScimRequest;
  /**
   * The request body's text as the server decoded it (in the charset the client named, a byte
   * order mark dropped), when the body came as bytes and was read as JSON; absent otherwise (the
   * body was not bytes, was not read, or was not valid text).
   */
  readonly requestBodyText?: string;
  /** The answer, with its body (also for HEAD, whose body the client does not get). */
  readonly response: ScimResponse;
  /** The path relative to the mount point, after a tenant prefix. */
  readonly path: string;
  /** The tenant the request acted for; absent for the default tenant. */
  readonly tenant?: string;
  /** What `authenticate` returned as principal. */
  readonly principal?: unknown;
  /** The endpoint reached (`create`, `patch`, …), when routed. */
  readonly operation?: string;
  readonly resourceType?: string;
  readonly resourceId?: string;
  /** The committed changes the request made, in order (a Bulk request: every operation's). */
  readonly changes: readonly ChangeEvent[];
  /** The server's tolerances when the request was answered, for hints about refused requests. */
  readonly compatibility: Readonly<Required<CompatibilityOptions>>;
  /** `unknownAttributes` of the server's configuration. */
  readonly unknownAttributes: 'reject' | 'ignore';
}

/**
 * `config.requestLog`: called once per answered request, at the end of `handle()`, synchronously.
 * It must return quickly (queue the work); a throw is reported to the logger and never changes the
 * response.
 */
export interface RequestRecorder {
  record(request: RecordedRequest): void;
}
