import type { SchemaDefinitionInput } from '../attribute-definition.js';
import { URN } from '../urns.js';
import { deepFreeze } from './deep-freeze.js';

/**
 * RFC 7643 §6 and §8.7.2: the ResourceType schema.
 * Text and characteristics follow the RFC with its errata applied (the scim2-models RFC samples).
 */
export const resourceTypeSchema: SchemaDefinitionInput = deepFreeze({
  id: URN.resourceType,
  name: 'ResourceType',
  description: 'Specifies the schema that describes a SCIM resource type',
  attributes: [
    {
      name: 'id',
      type: 'string',
      multiValued: false,
      description: "The resource type's server unique id. May be the same as the 'name' attribute.",
      required: false,
      caseExact: false,
      mutability: 'readOnly',
      returned: 'default',
      uniqueness: 'none',
    },
    {
      name: 'name',
      type: 'string',
      multiValued: false,
      description: "The resource type name.  When applicable, service providers MUST specify the name, e.g., 'User'.",
      required: true,
      caseExact: true,
      mutability: 'readOnly',
      returned: 'default',
      uniqueness: 'server',
    },
    {
      name: 'description',
      type: 'string',
      multiValued: false,
      description: "The resource type's human-readable description.  When applicable, service providers MUST specify the description.",
      required: false,
      caseExact: false,
      mutability: 'readOnly',
      returned: 'default',
      uniqueness: 'none',
    },
    {
      name: 'endpoint',
      type: 'reference',
      multiValued: false,
      description: "The resource type's HTTP-addressable endpoint relative to the Base URL, e.g., '/Users'.",
      required: true,
      caseExact: false,
      mutability: 'readOnly',
      returned: 'default',
      uniqueness: 'server',
      referenceTypes: ['uri'],
    },
    {
      name: 'schema',
      type: 'reference',
      multiValued: false,
      description: "The resource type's primary/base schema URI.",
      required: true,
      caseExact: true,
      mutability: 'readOnly',
      returned: 'default',
      uniqueness: 'none',
      referenceTypes: ['uri'],
    },
    {
      name: 'schemaExtensions',
      type: 'complex',
      multiValued: true,
      description: "A list of URIs of the resource type's schema extensions.",
      required: true,
      mutability: 'readOnly',
      returned: 'default',
      subAttributes: [
        {
          name: 'schema',
          type: 'reference',
          multiValued: false,
          description: 'The URI of a schema extension.',
          required: true,
          caseExact: true,
          mutability: 'readOnly',
          returned: 'default',
          uniqueness: 'none',
          referenceTypes: ['uri'],
        },
        {
          name: 'required',
          type: 'boolean',
          multiValued: false,
          description: 'A Boolean value that specifies whether or not the schema extension is required for the resource type.  If True, a resource of this type MUST include this schema extension and also include any attributes declared as required in this schema extension. If False, a resource of this type MAY omit this schema extension.',
          required: true,
          mutability: 'readOnly',
          returned: 'default',
        },
      ],
    },
  ],
});
