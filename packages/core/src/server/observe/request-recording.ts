import type { ChangeEvent } from '../config/scim-server-config.js';

/**
 * What a request's stages collect for the request log (`config.requestLog`) besides the trail, only
 * when a log is configured (internal, mutable): the committed changes, and the request body's text
 * as the server decoded it, so that the log does not decode the same bytes again.
 */
export interface RequestRecording {
  /** The committed changes, in order (a Bulk request: every operation's); made with the first. */
  changes?: ChangeEvent[];
  /** The request body as `readJsonBody` decoded it from bytes (absent: not bytes, or not read). */
  requestBodyText?: string;
}
