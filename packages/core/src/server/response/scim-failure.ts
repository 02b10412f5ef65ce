import type { ScimError } from '../../errors/scim-error.js';

/** A ScimError on its way to the client, with the HTTP headers it needs (`Allow`, `WWW-Authenticate`). */
export interface ScimFailure extends ScimError {
  readonly headers?: Readonly<Record<string, string>>;
}
