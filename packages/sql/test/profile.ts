import { createSchemaRegistry, groupResourceType, URN, userResourceType } from '@scimkit/core';
import type { StoreProfile } from '@scimkit/core/testing';
import { mapping as ownTablesMapping } from '../../../examples/own-tables/src/mapping.js';

const registry = createSchemaRegistry({
  resourceTypes: [{ ...userResourceType, schemaExtensions: [{ schema: URN.enterpriseUser, required: false }] }, groupResourceType],
});

/** What the own-tables mapping keeps, for the conformance kit. */
export const ownTablesProfile: StoreProfile = {
  user: registry.resourceType('User')!,
  group: registry.resourceType('Group')!,
  declared: Object.keys(ownTablesMapping['User']!.attributes),
  sameValue: [['userName', 'emails[type eq "work"].value']],
};
