/** The request fields a log record carries, as far as they are known when it is written. */
export interface LogScope {
  readonly requestId?: string;
  readonly method?: string;
  readonly path?: string;
  readonly tenant?: string;
}
