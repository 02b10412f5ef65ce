import { httpError } from '../../../errors/scim-error.js';
import { schemaDocument } from '../../../schema/schema-document.js';
import type { Exchange } from '../../request/exchange.js';
import { errorResponse, jsonResponse, listBody } from '../../response/serialize.js';
import type { ScimResponse } from '../../request/scim-request.js';
import { discoveryPage, pageOf, refuseFilter } from './discovery-paging.js';

/**
 * `GET /Schemas` (RFC 7644 §4): every schema of every configured resource type, then the RFC 7643 §7
 * meta-schemas when `discovery.metaSchemas` is on, paged.
 */
export function listSchemas(exchange: Exchange): ScimResponse {
  const page = discoveryPage(exchange.context, exchange.request);
  if (!page.ok) return errorResponse(page.error);
  const schemas = [...exchange.context.registry.schemas, ...exchange.context.metaSchemas];
  const documents = pageOf(schemas, page.value).map((schema) => schemaDocument(schema, exchange.baseUrl));
  return jsonResponse(200, listBody(schemas.length, page.value.startIndex, documents));
}

/** `GET /Schemas/{uri}` (RFC 7644 §4): one schema; 404 naming it when unknown. */
export function getSchema(exchange: Exchange, id: string): ScimResponse {
  const refused = refuseFilter(exchange.request);
  if (!refused.ok) return errorResponse(refused.error);
  const schema = exchange.context.registry.schema(id) ?? exchange.context.metaSchemas.find((meta) => meta.id.toLowerCase() === id.toLowerCase());
  if (schema === undefined) return errorResponse(httpError(404, `Schema ${quote(id)} not found`));
  return jsonResponse(200, schemaDocument(schema, exchange.baseUrl));
}

export function quote(text: string): string {
  return JSON.stringify(text.length > 200 ? `${text.slice(0, 200)}…` : text);
}
