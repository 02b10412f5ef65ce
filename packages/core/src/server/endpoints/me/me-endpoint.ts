import { httpError } from '../../../errors/scim-error.js';
import { logScopeOfExchange, type Exchange } from '../../request/exchange.js';
import { reportError } from '../../observe/notify-change.js';
import { resourceLocation } from '../../response/present-resource.js';
import type { Endpoint, MeAction } from '../../request/route.js';
import type { ScimResponse } from '../../request/scim-request.js';
import { errorResponse } from '../../response/serialize.js';

/** Answers one routed request; `/Me` hands the resource it stands for to the same dispatcher. */
export type MeDispatch = (exchange: Exchange, endpoint: Endpoint) => Promise<ScimResponse>;

/**
 * `/Me` (RFC 7644 §3.11): the configured `me` resolver names the resource the authenticated
 * principal stands for; GET, PUT, PATCH and DELETE then act on it exactly as on its own URL. A
 * principal that stands for none is 404. Every answer with a body carries `Location`, the
 * resource's canonical URL (RFC 7644 §3.11: "the permanent location of the aliased resource").
 */
export async function answerMe(exchange: Exchange, action: MeAction, dispatch: MeDispatch): Promise<ScimResponse> {
  const { context } = exchange;
  const resolver = context.config.me;
  if (resolver === undefined) return errorResponse(httpError(501, '/Me is not implemented by this service'));
  const target: unknown = await resolver(exchange.caller.principal, exchange.request);
  if (target === undefined || target === null) return errorResponse(httpError(404, 'The authenticated subject has no resource on this service (/Me)'));
  const { resourceType, id } = target as { resourceType?: unknown; id?: unknown };
  const wanted = typeof resourceType === 'string' ? resourceType.toLowerCase() : undefined;
  const type = context.types.find((candidate) => candidate.model.definition.name.toLowerCase() === wanted || candidate.model.definition.id.toLowerCase() === wanted);
  if (type === undefined || typeof id !== 'string' || id === '') {
    reportError(context, 'the me resolver returned something that is not { resourceType, id } of a served type', target, logScopeOfExchange(exchange));
    return errorResponse(httpError(500, 'Internal server error'));
  }
  if (!type.operations.has(action)) {
    const allow = (['read', 'replace', 'patch', 'delete'] as const).filter((can) => type.operations.has(can)).map((can) => METHOD[can]);
    return errorResponse({ ...httpError(405, `Method ${METHOD[action]} is not allowed on /Me for ${type.model.definition.name}`), headers: { Allow: allow.join(', ') } });
  }
  const response = await dispatch(exchange, { operation: action, type, id });
  const location = resourceLocation(type, id, exchange.baseUrl);
  if (location === undefined || response.status >= 300 || response.status === 204) return response;
  return { ...response, headers: { ...response.headers, Location: location } };
}

const METHOD: Record<MeAction, string> = { read: 'GET', replace: 'PUT', patch: 'PATCH', delete: 'DELETE' };
