export { listSchemas, getSchema } from './schemas-endpoint.js';
export { listResourceTypes, getResourceType } from './resource-types-endpoint.js';
export { getServiceProviderConfig, serviceProviderConfigDocument } from './service-provider-config.js';
export { discoveryPage, refuseFilter, pageOf } from './discovery-paging.js';
export type { DiscoveryPage } from './discovery-paging.js';
