import type { SchemaDefinitionInput } from '../attribute-definition.js';
import { URN } from '../urns.js';
import { deepFreeze } from './deep-freeze.js';

/**
 * RFC 7643 §4.2 and §8.7.1: the Group resource schema.
 * Text and characteristics follow the RFC with its errata applied (the scim2-models RFC samples).
 */
export const groupSchema: SchemaDefinitionInput = deepFreeze({
  id: URN.group,
  name: 'Group',
  description: 'Group',
  attributes: [
    {
      name: 'displayName',
      type: 'string',
      multiValued: false,
      description: 'A human-readable name for the Group. REQUIRED.',
      required: true,
      caseExact: false,
      mutability: 'readWrite',
      returned: 'default',
      uniqueness: 'none',
    },
    {
      name: 'members',
      type: 'complex',
      multiValued: true,
      description: 'A list of members of the Group.',
      required: false,
      mutability: 'readWrite',
      returned: 'default',
      subAttributes: [
        {
          name: 'value',
          type: 'string',
          multiValued: false,
          description: 'Identifier of the member of this Group.',
          required: false,
          caseExact: false,
          mutability: 'immutable',
          returned: 'default',
          uniqueness: 'none',
        },
        {
          name: '$ref',
          type: 'reference',
          multiValued: false,
          description: 'The URI corresponding to a SCIM resource that is a member of this Group.',
          required: false,
          caseExact: false,
          mutability: 'immutable',
          returned: 'default',
          uniqueness: 'none',
          referenceTypes: ['User', 'Group'],
        },
        {
          name: 'type',
          type: 'string',
          multiValued: false,
          description: "A label indicating the type of resource, e.g., 'User' or 'Group'.",
          required: false,
          caseExact: false,
          mutability: 'immutable',
          returned: 'default',
          uniqueness: 'none',
          canonicalValues: ['User', 'Group'],
        },
        {
          name: 'display',
          type: 'string',
          multiValued: false,
          description: 'A human-readable name for the group member, primarily used for display purposes.',
          required: false,
          caseExact: false,
          mutability: 'readOnly',
          returned: 'default',
          uniqueness: 'none',
        },
      ],
    },
  ],
});
