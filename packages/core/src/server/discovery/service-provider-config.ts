import { URN } from '../../schema/urns.js';
import type { Exchange } from '../exchange.js';
import { errorResponse, jsonResponse } from '../serialize.js';
import type { ScimResponse } from '../scim-request.js';
import type { ServerContext } from '../server-context.js';
import { refuseFilter } from './discovery-paging.js';

/**
 * The RFC 7643 §5 document, generated from the configuration so it never claims a feature the
 * server lacks: PATCH when some type offers it, no bulk (maxOperations 0, maxPayloadSize the body
 * limit), filter with `maxResults`, no changePassword, sort, ETags, the configured schemes.
 */
export function serviceProviderConfigDocument(context: ServerContext, baseUrl: string): Record<string, unknown> {
  const { documentationUri, authenticationSchemes = [] } = context.config;
  return {
    schemas: [URN.serviceProviderConfig],
    ...(documentationUri === undefined ? {} : { documentationUri }),
    patch: { supported: context.types.some((type) => type.operations.has('patch')) },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: context.limits.maxBodyBytes },
    filter: { supported: true, maxResults: context.limits.maxResults },
    changePassword: { supported: false },
    sort: { supported: true },
    etag: { supported: true },
    authenticationSchemes: authenticationSchemes.map((scheme) => ({ ...scheme })),
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

/** `GET /ServiceProviderConfig` (RFC 7644 §4). */
export function getServiceProviderConfig(exchange: Exchange): ScimResponse {
  const refused = refuseFilter(exchange.request);
  if (!refused.ok) return errorResponse(refused.error);
  return jsonResponse(200, serviceProviderConfigDocument(exchange.context, exchange.baseUrl));
}
