export { commonAttributes } from './common-attributes.js';
export { userSchema } from './user-schema.js';
export { groupSchema } from './group-schema.js';
export { enterpriseUserSchema } from './enterprise-user-schema.js';
export { serviceProviderConfigSchema } from './service-provider-config-schema.js';
export { resourceTypeSchema } from './resource-type-schema.js';
export { schemaSchema } from './schema-schema.js';
export { userResourceType, groupResourceType, BUILTIN_RESOURCE_TYPES } from './resource-types.js';
