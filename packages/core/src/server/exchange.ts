import type { Caller } from './authenticate.js';
import type { StoreContext } from '../store/scim-store.js';
import type { ScimRequest } from './scim-request.js';
import type { ServerContext } from './server-context.js';

/** One request in flight, as the operations see it once it is routed and authenticated. */
export interface Exchange {
  readonly context: ServerContext;
  readonly request: ScimRequest;
  readonly caller: Caller;
  /** Absolute mount-point URL without a trailing slash (see `resolveBaseUrl`). */
  readonly baseUrl: string;
  /** Who the store calls of this request act for (tenant, request id); passed to every store call. */
  readonly storeContext: StoreContext;
}

/** The principal to put on a change event, when `authenticate` gave one. */
export function principalOf(exchange: Exchange): { principal?: unknown } {
  return exchange.caller.principal === undefined ? {} : { principal: exchange.caller.principal };
}
