import type { ScimLogger } from '@scimkit/core';

/** The part of a pino `Logger` the adapter calls (pino's own type has it; no dependency here). */
export interface PinoLike {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/**
 * scimkit's log records on a pino logger: `createScimServer({ logger: pinoLogger(pino()) })`. The
 * record's fields become pino's merging object, the error under `err` (pino's error serializer).
 */
export function pinoLogger(pino: PinoLike): ScimLogger {
  return {
    log: ({ level, message, error, ...fields }) => pino[level]({ ...fields, ...(error === undefined ? {} : { err: error }) }, message),
  };
}
