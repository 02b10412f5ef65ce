import { URN } from '../../../schema/urns.js';
import type { Exchange } from '../../request/exchange.js';
import { errorResponse, jsonResponse } from '../../response/serialize.js';
import type { ScimResponse } from '../../request/scim-request.js';
import type { PaginationSettings } from '../../query/paging/pagination-settings.js';
import type { ServerContext } from '../../config/server-context.js';
import { refuseFilter } from './discovery-paging.js';

/**
 * The RFC 7643 §5 document, generated from the configuration so it never claims a feature the
 * server lacks: PATCH when some type offers it, bulk with its limits when `bulk` is on (else
 * unsupported: maxOperations 0, maxPayloadSize the body limit), filter with `maxResults`, no changePassword, sort, ETags, RFC 9865
 * `pagination` when cursors are on (unless the `omitPaginationConfig` tolerance hides it), the configured schemes.
 */
export function serviceProviderConfigDocument(context: ServerContext, baseUrl: string): Record<string, unknown> {
  const { documentationUri, authenticationSchemes = [] } = context.config;
  return {
    schemas: [URN.serviceProviderConfig],
    ...(documentationUri === undefined ? {} : { documentationUri }),
    patch: { supported: context.types.some((type) => type.operations.has('patch')) },
    bulk:
      context.bulk === undefined
        ? { supported: false, maxOperations: 0, maxPayloadSize: context.limits.maxBodyBytes }
        : { supported: true, maxOperations: context.bulk.maxOperations, maxPayloadSize: context.bulk.maxPayloadSize },
    filter: { supported: true, maxResults: context.limits.maxResults },
    changePassword: { supported: false },
    sort: { supported: true },
    etag: { supported: true },
    ...(context.pagination === undefined || context.compatibility.omitPaginationConfig ? {} : { pagination: paginationDocument(context, context.pagination) }),
    authenticationSchemes: authenticationSchemes.map((scheme) => ({ ...scheme })),
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

/** RFC 9865 §4: both methods, the default one, page sizes (`maxPageSize` is `filter.maxResults`), cursor lifetime. */
function paginationDocument(context: ServerContext, pagination: PaginationSettings): Record<string, unknown> {
  return {
    cursor: true,
    index: true,
    defaultPaginationMethod: pagination.defaultPaginationMethod,
    defaultPageSize: context.limits.defaultPageSize,
    maxPageSize: context.limits.maxResults,
    cursorTimeout: pagination.cursorTimeout,
  };
}

/** `GET /ServiceProviderConfig` (RFC 7644 §4). */
export function getServiceProviderConfig(exchange: Exchange): ScimResponse {
  const refused = refuseFilter(exchange.request);
  if (!refused.ok) return errorResponse(refused.error);
  return jsonResponse(200, serviceProviderConfigDocument(exchange.context, exchange.baseUrl));
}
