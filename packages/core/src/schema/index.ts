export { URN } from './urns.js';
export type {
  AttributeType,
  Mutability,
  Returned,
  Uniqueness,
  AttributeDefinition,
  AttributeDefinitionInput,
  SchemaDefinition,
  SchemaDefinitionInput,
  ResourceTypeDefinition,
  ResourceTypeDefinitionInput,
} from './attribute-definition.js';
export type { ScimResource, ScimMeta } from './scim-resource.js';
export type { ResourceModel, ResolvedAttribute } from './resource-model.js';
export { isAttributeName, isForbiddenKey } from './attribute-name.js';
export { normalizeAttribute, normalizeAttributes } from './normalize-attribute.js';
export { normalizeSchema } from './normalize-schema.js';
export { createResourceModel } from './create-resource-model.js';
export { createSchemaRegistry } from './schema-registry.js';
export type { SchemaRegistry, SchemaRegistryOptions } from './schema-registry.js';
export {
  commonAttributes,
  userSchema,
  groupSchema,
  enterpriseUserSchema,
  serviceProviderConfigSchema,
  resourceTypeSchema,
  schemaSchema,
  userResourceType,
  groupResourceType,
  builtinResourceTypes,
} from './builtin/index.js';
export { validateResource } from './validate-resource.js';
export type { ValidationContext, ValidationOptions } from './validation-options.js';
export { isDateTime } from './is-date-time.js';
export { isBase64 } from './is-base64.js';
export { projectResource } from './project-resource.js';
export type { AttributeSelection } from './project-resource.js';
export { bareExtension } from './bare-extension.js';
export { schemaDocument, attributeDocument } from './schema-document.js';
export { resourceTypeDocument } from './resource-type-document.js';
export type {
  ScimUser,
  ScimEnterpriseUser,
  ScimName,
  ScimAddress,
  ScimMultiValue,
  ScimUserGroup,
  ScimGroup,
  ScimGroupMember,
} from './builtin/index.js';
