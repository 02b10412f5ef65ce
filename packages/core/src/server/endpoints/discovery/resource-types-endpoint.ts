import { httpError } from '../../../errors/scim-error.js';
import { resourceTypeDocument } from '../../../schema/resource-type-document.js';
import type { Exchange } from '../../request/exchange.js';
import { errorResponse, jsonResponse, listBody } from '../../response/serialize.js';
import type { ScimResponse } from '../../request/scim-request.js';
import type { ServedType } from '../../config/server-context.js';
import { discoveryPage, pageOf, refuseFilter } from './discovery-paging.js';
import { quote } from './schemas-endpoint.js';

/** Types clients can reach: those with at least one endpoint (RFC 7644 §4). */
function listedTypes(exchange: Exchange): ServedType[] {
  return exchange.context.types.filter((type) => type.operations.size > 0);
}

/** `GET /ResourceTypes` (RFC 7644 §4): every resource type with an endpoint, paged. */
export function listResourceTypes(exchange: Exchange): ScimResponse {
  const page = discoveryPage(exchange.context, exchange.request);
  if (!page.ok) return errorResponse(page.error);
  const types = listedTypes(exchange);
  const documents = pageOf(types, page.value).map((type) => resourceTypeDocument(type.model, exchange.baseUrl));
  return jsonResponse(200, listBody(types.length, page.value.startIndex, documents));
}

/** `GET /ResourceTypes/{id}` (RFC 7644 §4): one resource type by id or name; 404 naming it when unknown. */
export function getResourceType(exchange: Exchange, id: string): ScimResponse {
  const refused = refuseFilter(exchange.request);
  if (!refused.ok) return errorResponse(refused.error);
  const lower = id.toLowerCase();
  const type = listedTypes(exchange).find(
    (candidate) => candidate.model.definition.id.toLowerCase() === lower || candidate.model.definition.name.toLowerCase() === lower,
  );
  if (type === undefined) return errorResponse(httpError(404, `Resource type ${quote(id)} not found`));
  return jsonResponse(200, resourceTypeDocument(type.model, exchange.baseUrl));
}
