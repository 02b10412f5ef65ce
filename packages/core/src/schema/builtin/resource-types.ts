import type { ResourceTypeDefinitionInput } from '../attribute-definition.js';
import { URN } from '../urns.js';
import { deepFreeze } from './deep-freeze.js';

/** RFC 7643 §8.6: the User resource type, with the optional Enterprise User extension. */
export const userResourceType: ResourceTypeDefinitionInput = deepFreeze({
  id: 'User',
  name: 'User',
  endpoint: '/Users',
  description: 'User Account',
  schema: URN.user,
  schemaExtensions: [{ schema: URN.enterpriseUser, required: false }],
});

/** RFC 7643 §8.6: the Group resource type. */
export const groupResourceType: ResourceTypeDefinitionInput = deepFreeze({
  id: 'Group',
  name: 'Group',
  endpoint: '/Groups',
  description: 'Group',
  schema: URN.group,
  schemaExtensions: [],
});

/** The resource types RFC 7643 defines, ready to pass to `createSchemaRegistry()`. */
export const builtinResourceTypes: readonly ResourceTypeDefinitionInput[] = Object.freeze([userResourceType, groupResourceType]);
