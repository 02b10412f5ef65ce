import { selectionFromQuery } from '../../query/attribute-selection.js';
import type { Exchange } from '../../request/exchange.js';
import { loadResource } from '../../query/load-resource.js';
import { readContext, withComputedAttributes } from '../../membership/index.js';
import { ifNoneMatchHits } from '../../request/precondition.js';
import { presentResource } from '../../response/present-resource.js';
import { emptyResponse, errorResponse } from '../../response/serialize.js';
import type { ScimResponse } from '../../request/scim-request.js';
import type { ServedType } from '../../config/server-context.js';
import { resourceResponse } from './resource-response.js';

/**
 * `GET {endpoint}/{id}` (RFC 7644 §3.4.1): 200 with the resource and its `ETag` (computed `groups`
 * included when shown); 404 when unknown; 304 with an empty body when `If-None-Match` names the current version.
 */
export async function readResource(exchange: Exchange, type: ServedType, id: string): Promise<ScimResponse> {
  const selection = selectionFromQuery(exchange.request, exchange.context.compatibility.valueFilterInAttributes);
  if (!selection.ok) return errorResponse(selection.error);
  const loaded = await loadResource(exchange.context, type, id, readContext(exchange, type, selection.value));
  if (!loaded.ok) return errorResponse(loaded.error);
  const resource = loaded.value;
  if (ifNoneMatchHits(exchange.request, resource)) return emptyResponse(304, { ETag: resource.meta.version });
  const [shown] = await withComputedAttributes(exchange, type, [resource], selection.value);
  return resourceResponse(200, presentResource(type, shown ?? resource, exchange.baseUrl, selection.value), resource);
}
