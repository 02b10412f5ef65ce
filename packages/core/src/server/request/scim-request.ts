/**
 * The transport-free request and response of `handle()`. Adapters translate a framework's
 * request to `ScimRequest` and write `ScimResponse` back; everything else lives in the core.
 */
export interface ScimRequest {
  /** HTTP method, any case. */
  readonly method: string;
  /** Path relative to the mount point, e.g. `/Users/2819c223` (percent-encoded as received). */
  readonly path: string;
  /** Decoded query parameters; a repeated parameter may arrive as an array. */
  readonly query?: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** Header names in any case. */
  readonly headers?: Readonly<Record<string, string | readonly string[] | undefined>>;
  /**
   * The body: raw text or bytes (preferred; the core parses JSON and enforces the size limit),
   * or an already-parsed JSON value when a framework's body parser ran first.
   */
  readonly body?: string | Uint8Array | unknown;
  /**
   * Absolute URL of the mount point, e.g. `https://idp.example.com/scim/v2`, used for
   * `meta.location` and `Location`. Falls back to `config.baseUrl`, then to the Host header.
   */
  readonly baseUrl?: string;
  /**
   * The tenant the URL names, when an adapter or application knows it; the core fills it from the
   * path with `tenancy.path`. `authenticate` should check that the caller may act for it.
   */
  readonly tenant?: string;
}

export interface ScimResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** JSON text, or undefined for 204 / 304. */
  readonly body?: string;
}
