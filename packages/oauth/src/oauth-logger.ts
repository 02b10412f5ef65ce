/** A log record of the token endpoint. Never holds a secret, an assertion or a token. */
export interface OAuthLogRecord {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly message: string;
  /** The client, when the request named a well-formed client id. */
  readonly clientId?: string;
  readonly tenant?: string;
  /** The RFC 6749 §5.2 error code of a refusal. */
  readonly code?: string;
  /** Why (the `error_description`), for a refusal. */
  readonly reason?: string;
  /** How the client authenticated. */
  readonly method?: string;
  readonly scope?: string;
  /** An unexpected failure (a client store down). */
  readonly error?: unknown;
}

/** Where the token endpoint writes its records; a core `ScimLogger` fits. */
export interface OAuthLogger {
  log(record: OAuthLogRecord): void;
}

export function writeRecord(logger: OAuthLogger | undefined, record: OAuthLogRecord): void {
  try {
    logger?.log(record);
  } catch {
    // A failing logger never changes an answer.
  }
}
