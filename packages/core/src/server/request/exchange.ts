import type { Caller } from './authenticate.js';
import type { RequestRecording } from '../observe/request-recording.js';
import type { LogScope } from '../observe/log-scope.js';
import type { StoreContext } from '../../store/scim-store.js';
import type { ScimRequest } from './scim-request.js';
import type { ServerContext } from '../config/server-context.js';
import { versionKey } from '../write/recent-versions.js';

/** One request in flight, as the operations see it once it is routed and authenticated. */
export interface Exchange {
  /** The server's context, or the tenant's when the tenant has its own configuration. */
  readonly context: ServerContext;
  readonly request: ScimRequest;
  readonly caller: Caller;
  /** Absolute mount-point URL without a trailing slash (see `resolveBaseUrl`). */
  readonly baseUrl: string;
  /** Who the store calls of this request act for (tenant, request id); passed to every store call. */
  readonly storeContext: StoreContext & { readonly requestId: string };
  /** Where committed changes (and the body's text) are collected for the request log, when one is configured. */
  readonly recording?: RequestRecording | undefined;
}

/** Who acts in an event the application sees (`onChange`): the principal `authenticate` gave, the tenant and the request id. */
export function actorOf(exchange: Exchange): { principal?: unknown; tenant?: string; requestId: string } {
  const { principal } = exchange.caller;
  const { tenant, requestId } = exchange.storeContext;
  return { ...(principal === undefined ? {} : { principal }), ...(tenant === undefined ? {} : { tenant }), requestId };
}

/** The key serializing writes to one resource (and of its recent version): tenants never wait on each other's resources. */
export function writeKey(exchange: Exchange, resourceType: string, id: string): string {
  return versionKey(exchange.storeContext.tenant, resourceType, id);
}

/** The request fields of a log record written while the exchange runs. */
export function logScopeOfExchange(exchange: Exchange): LogScope {
  const { tenant, requestId } = exchange.storeContext;
  const { method, path } = exchange.request;
  return { requestId, method, path, ...(tenant === undefined ? {} : { tenant }) };
}
