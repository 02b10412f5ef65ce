import { httpError } from '../../errors/scim-error.js';
import type { Exchange } from './exchange.js';
import type { Endpoint } from './route.js';
import type { AccessKind, AuthorizationEvent } from '../config/scim-server-config.js';
import type { ScimFailure } from '../response/scim-failure.js';
import { reportError } from '../observe/notify-change.js';
import { logScopeOfExchange } from './exchange.js';

/** What each endpoint does, for `authorize`. */
function accessOf(endpoint: Endpoint): AccessKind {
  switch (endpoint.operation) {
    case 'read':
    case 'list':
    case 'search':
    case 'rootSearch':
      return 'read';
    case 'create':
    case 'replace':
    case 'patch':
    case 'delete':
      return 'write';
    case 'bulk':
      return 'bulk';
    case 'me':
      return endpoint.action === 'read' ? 'read' : 'write';
    default:
      return 'discovery';
  }
}

/**
 * Run `authorize` for one routed operation (a whole request, or one operation of a Bulk request):
 * undefined lets it run; a refusal is a 403 with `WWW-Authenticate: Bearer error="insufficient_scope"`
 * naming the scope it needs (RFC 6750 §3.1). A hook that answers something else is a 500.
 */
export async function authorizeOperation(exchange: Exchange, endpoint: Endpoint, inBulk: boolean): Promise<ScimFailure | undefined> {
  const hook = exchange.context.config.authorize;
  if (hook === undefined) return undefined;
  const { principal, scopes } = exchange.caller;
  const { tenant } = exchange.storeContext;
  const type = (endpoint as { type?: { model: { definition: { name: string } } } }).type;
  const event: AuthorizationEvent = {
    access: accessOf(endpoint),
    operation: endpoint.operation,
    inBulk,
    ...(type === undefined ? {} : { resourceType: type.model.definition.name }),
    ...(principal === undefined ? {} : { principal }),
    ...(tenant === undefined ? {} : { tenant }),
    ...(scopes === undefined ? {} : { scopes }),
  };
  const outcome: unknown = await hook(event);
  if (outcome === undefined || outcome === null) return undefined;
  const scope = (outcome as { scope?: unknown }).scope;
  if ((outcome as { ok?: unknown }).ok !== false || typeof scope !== 'string' || !/^[\x21\x23-\x5b\x5d-\x7e ]+$/.test(scope)) {
    reportError(exchange.context, 'the authorize hook returned something that is not undefined or { ok: false, scope }', outcome, logScopeOfExchange(exchange));
    return httpError(500, 'Internal server error');
  }
  const detail = (outcome as { detail?: unknown }).detail;
  return {
    ...httpError(403, typeof detail === 'string' ? detail : `The access token does not carry the scope this operation needs (${scope})`),
    // RFC 6750 §3: scope-token characters exclude the double quote and backslash (checked above).
    headers: { 'WWW-Authenticate': `Bearer realm="SCIM", error="insufficient_scope", scope="${scope}"` },
  };
}
