import type { SchemaDefinitionInput } from '../schema/attribute-definition.js';
import { groupResourceType, userResourceType } from '../schema/builtin/resource-types.js';
import type { ResourceModel } from '../schema/resource-model.js';
import { createSchemaRegistry } from '../schema/schema-registry.js';
import { URN } from '../schema/urns.js';

/** A test-only extension with one attribute of each type the built-in User lacks. */
export const EXTRA_URN = 'urn:scimkit:params:scim:schemas:extension:conformance:2.0:User';

const extraSchema: SchemaDefinitionInput = {
  id: EXTRA_URN,
  name: 'Conformance',
  attributes: [
    { name: 'level', type: 'integer' },
    { name: 'score', type: 'decimal' },
    { name: 'flag', type: 'boolean' },
    { name: 'since', type: 'dateTime' },
    { name: 'code', type: 'string', caseExact: true },
    { name: 'tags', type: 'string', multiValued: true },
  ],
};

/** The models the kit drives filters and sorts through: User (+ Enterprise, + the test extension) and Group. */
export interface ConformanceModels {
  readonly user: ResourceModel;
  readonly group: ResourceModel;
}

export function conformanceModels(): ConformanceModels {
  const registry = createSchemaRegistry({
    schemas: [extraSchema],
    resourceTypes: [
      { ...userResourceType, schemaExtensions: [{ schema: URN.enterpriseUser, required: false }, { schema: EXTRA_URN, required: false }] },
      groupResourceType,
    ],
  });
  const user = registry.resourceType('User');
  const group = registry.resourceType('Group');
  if (user === undefined || group === undefined) throw new Error('conformance registry is incomplete');
  return { user, group };
}
