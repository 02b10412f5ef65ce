/**
 * What the server knows about the request in flight. Hooks (`onRequest`, `onResponse`, `onChange`)
 * and log records carry it; the store receives `tenant` and `requestId` as its `StoreContext`.
 */
export interface RequestContext {
  /** From a valid `X-Request-Id`, else the `traceparent` trace id, else generated; echoed as `X-Request-Id`. */
  readonly requestId: string;
  /** The HTTP method as received. */
  readonly method: string;
  /** The path relative to the SCIM mount point (after a tenant prefix, see `TenancyOptions.path`). */
  readonly path: string;
  /** The tenant the request acts for; absent for the default (single) tenant. */
  readonly tenant?: string;
  /** What `authenticate` returned as `principal`, once authenticated. */
  readonly principal?: unknown;
}

/** Handed to `onRequest` once a request is routed and authenticated, before it runs. */
export interface RequestEvent extends RequestContext {
  /** The endpoint reached: `create`, `read`, `list`, `patch`, `serviceProviderConfig`, … */
  readonly operation: string;
  /** The resource type's name (`User`) for a resource endpoint. */
  readonly resourceType?: string;
  /** The resource id in the path, for an endpoint on one resource. */
  readonly resourceId?: string;
}

/** Handed to `onResponse` for every request `handle()` answers, refused ones included. */
export interface ResponseEvent extends RequestContext {
  readonly status: number;
  /** Time from `handle()` being called to the response being ready, in milliseconds. */
  readonly durationMs: number;
  /** As on `RequestEvent`, when the request was routed. */
  readonly operation?: string;
  readonly resourceType?: string;
  readonly resourceId?: string;
}
