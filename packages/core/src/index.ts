/**
 * @scimkit/core: the public entry. Every name a user of the library needs is exported here, by name.
 */
export { SCIM_TYPE_STATUS, SCIM_TYPES, isScimType } from './errors/scim-type.js';
export type { ScimType } from './errors/scim-type.js';
export { scimError, httpError, isScimError, ScimException } from './errors/scim-error.js';
export type { ScimError } from './errors/scim-error.js';
export { ok, err } from './errors/result.js';
export type { Result } from './errors/result.js';
export { URN } from './schema/urns.js';
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
} from './schema/attribute-definition.js';
export type { ScimResource, ScimMeta } from './schema/scim-resource.js';
export type {
  AttrPath,
  CompareOperator,
  CompValue,
  CompareFilter,
  PresentFilter,
  LogicalFilter,
  NotFilter,
  ValuePathFilter,
  Filter,
  PatchPath,
} from './filter/ast.js';
export type {
  ScimStore,
  StoreCapabilities,
  StoreQuery,
  StoreQueryResult,
  StoreWriteResult,
  StoreDeleteResult,
  SortSpec,
  UniqueAttribute,
  WriteContext,
  FilterSemantics,
  AttributeFacts,
} from './store/scim-store.js';
export type { ScimRequest, ScimResponse } from './server/scim-request.js';
export type { ResourceModel, ResolvedAttribute } from './schema/resource-model.js';
export {
  createSchemaRegistry,
  createResourceModel,
  normalizeAttribute,
  normalizeAttributes,
  normalizeSchema,
  isAttributeName,
  isForbiddenKey,
  commonAttributes,
  userSchema,
  groupSchema,
  enterpriseUserSchema,
  serviceProviderConfigSchema,
  resourceTypeSchema,
  schemaSchema,
  userResourceType,
  groupResourceType,
  BUILTIN_RESOURCE_TYPES,
} from './schema/index.js';
export type { SchemaRegistry, SchemaRegistryOptions } from './schema/index.js';
export {
  parseFilter,
  parsePatchPath,
  parseAttrPath,
  parseAttrPathList,
  printFilter,
  printAttrPath,
  printPatchPath,
  DEFAULT_FILTER_LIMITS,
  compileFilter,
  compileSort,
  compileValueFilter,
} from './filter/index.js';
export type { FilterLimits, FilterOptions, ResourcePredicate, ResourceComparator, SortOrder, ValueFilterPredicate } from './filter/index.js';
export { validateResource, isDateTime, isBase64 } from './schema/index.js';
export type { ValidationContext, ValidationOptions } from './schema/index.js';
export { projectResource, schemaDocument, attributeDocument, resourceTypeDocument, bareExtension } from './schema/index.js';
export type { AttributeSelection } from './schema/index.js';
export { createMemoryStore } from './store/index.js';
export type { MemoryStoreOptions } from './store/index.js';
export { createScimServer, ALL_OPERATIONS, DEFAULT_LIMITS, DEFAULT_COMPATIBILITY, SCIM_MEDIA_TYPE, etagListMatches } from './server/index.js';
export type {
  ScimServer,
  ScimServerConfig,
  ResourceTypeConfig,
  ScimOperation,
  AuthenticationScheme,
  AuthenticationResult,
  ChangeEvent,
  ScimLogger,
  ScimServerLimits,
  CompatibilityOptions,
} from './server/index.js';
export type {
  ScimUser,
  ScimEnterpriseUser,
  ScimName,
  ScimAddress,
  ScimMultiValue,
  ScimUserGroup,
  ScimGroup,
  ScimGroupMember,
} from './schema/index.js';
export { applyPatch, DEFAULT_PATCH_OPTIONS, resolvePatchOptions, parsePatchRequest } from './patch/index.js';
export type { PatchResult, PatchOptions, ResolvedPatchOptions, PatchOperation, PatchOpName } from './patch/index.js';
