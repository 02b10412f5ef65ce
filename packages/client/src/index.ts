/**
 * @scimkit/client: a typed SCIM 2.0 client over `fetch` (docs/client.md).
 *
 * @module @scimkit/client
 */
export { createScimClient, ScimClient, MeEndpoint } from './scim-client.js';
export type { ScimClientOptions, Discovery } from './scim-client.js';
export { ResourceEndpoint } from './resource-endpoint.js';
export type { CallOptions, AttributeOptions, ListOptions, WriteOptions, PatchCallOptions, IfMatch, Target, NewResource } from './resource-endpoint.js';
export { Paged } from './paging.js';
export type { Page, PagingMethod } from './paging.js';
export { filterBuilder, userFilter, groupFilter, elementFilter, ScimFilter } from './filter-builder.js';
export type { FilterBuilder, FilterValue } from './filter-builder.js';
export { patchOps, PatchBuilder } from './patch-builder.js';
export type { PatchOperation, PatchOpMessage, PatchPathInput } from './patch-builder.js';
export { BulkBuilder } from './bulk-builder.js';
export type { BulkOperation, BulkOperationResult, BulkResult } from './bulk-builder.js';
export { bearerAuth, clientCredentialsAuth } from './auth.js';
export type { AuthProvider, ClientCredentialsOptions } from './auth.js';
export { ScimClientError, ScimResponseError, ScimPreconditionFailedError, ScimTimeoutError, ScimProtocolError } from './errors.js';
export type { ErrorResponseInfo } from './errors.js';
export type { RetryOptions } from './retry-policy.js';
export { retryAfterMs } from './retry-after.js';
export type { ScimRequestInit, ScimExchange } from './transport.js';
export { SCIM_URN } from './urn.js';
export type { ScimResource, ScimUser, ScimGroup, ScimMeta, MultiValued, ListResponse, ServiceProviderConfig, ScimSchema, SchemaAttribute, ScimResourceType, OnTheWire, Named } from './resources.js';
export type { UserAttributeName, GroupAttributeName, SubAttributeName, EnterpriseUserUrn } from './attribute-names.js';
