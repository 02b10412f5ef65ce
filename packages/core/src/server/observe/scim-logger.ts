/** How much a log record matters. */
export type ScimLogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * One structured log record. The server writes one `info` record per answered request (method,
 * path, status, duration) and an `error` record for every unexpected failure (a throwing store,
 * hook or logger-unrelated bug), with the request's fields when it has them.
 */
export interface ScimLogRecord {
  readonly level: ScimLogLevel;
  readonly message: string;
  readonly requestId?: string;
  readonly method?: string;
  readonly path?: string;
  readonly status?: number;
  readonly tenant?: string;
  readonly durationMs?: number;
  /** The thrown value, for an `error` record. */
  readonly error?: unknown;
}

/**
 * Where the server writes its log records. Adapt any logging library in one line, e.g. pino:
 * `{ log: ({ level, message, ...fields }) => pino[level](fields, message) }`. A throwing or
 * rejecting logger is ignored: logging never changes a response.
 */
export interface ScimLogger {
  log(record: ScimLogRecord): void;
}

/** The default: `warn` and `error` records to `console.error`; `info` and `debug` dropped. */
export const CONSOLE_LOGGER: ScimLogger = Object.freeze({
  log: (record: ScimLogRecord) => {
    if (record.level !== 'error' && record.level !== 'warn') return;
    const { level: _level, message, ...fields } = record;
    console.error(`scimkit: ${message}`, fields);
  },
});
