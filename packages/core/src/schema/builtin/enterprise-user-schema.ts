import type { SchemaDefinitionInput } from '../attribute-definition.js';
import { URN } from '../urns.js';
import { deepFreeze } from './deep-freeze.js';

/**
 * RFC 7643 §4.3 and §8.7.1: the Enterprise User schema extension.
 * Text and characteristics follow the RFC with its errata applied (the scim2-models RFC samples).
 */
export const enterpriseUserSchema: SchemaDefinitionInput = deepFreeze({
  id: URN.enterpriseUser,
  name: 'EnterpriseUser',
  description: 'Enterprise User',
  attributes: [
    {
      name: 'employeeNumber',
      type: 'string',
      multiValued: false,
      description: 'Numeric or alphanumeric identifier assigned to a person, typically based on order of hire or association with an organization.',
      required: false,
      caseExact: false,
      mutability: 'readWrite',
      returned: 'default',
      uniqueness: 'none',
    },
    {
      name: 'costCenter',
      type: 'string',
      multiValued: false,
      description: 'Identifies the name of a cost center.',
      required: false,
      caseExact: false,
      mutability: 'readWrite',
      returned: 'default',
      uniqueness: 'none',
    },
    {
      name: 'organization',
      type: 'string',
      multiValued: false,
      description: 'Identifies the name of an organization.',
      required: false,
      caseExact: false,
      mutability: 'readWrite',
      returned: 'default',
      uniqueness: 'none',
    },
    {
      name: 'division',
      type: 'string',
      multiValued: false,
      description: 'Identifies the name of a division.',
      required: false,
      caseExact: false,
      mutability: 'readWrite',
      returned: 'default',
      uniqueness: 'none',
    },
    {
      name: 'department',
      type: 'string',
      multiValued: false,
      description: 'Identifies the name of a department.',
      required: false,
      caseExact: false,
      mutability: 'readWrite',
      returned: 'default',
      uniqueness: 'none',
    },
    {
      name: 'manager',
      type: 'complex',
      multiValued: false,
      description: "The User's manager.  A complex type that optionally allows service providers to represent organizational hierarchy by referencing the 'id' attribute of another User.",
      required: false,
      mutability: 'readWrite',
      returned: 'default',
      subAttributes: [
        {
          name: 'value',
          type: 'string',
          multiValued: false,
          description: "The id of the SCIM resource representing the User's manager.  REQUIRED.",
          required: true,
          caseExact: true,
          mutability: 'readWrite',
          returned: 'default',
          uniqueness: 'none',
        },
        {
          name: '$ref',
          type: 'reference',
          multiValued: false,
          description: "The URI of the SCIM resource representing the User's manager.  REQUIRED.",
          // RFC 7643 §8.7.1 says false (the errata-applied samples say true). Entra ID and Okta send
          // `manager` with `value` only, so requiring `$ref` would reject every real client.
          required: false,
          caseExact: false,
          mutability: 'readWrite',
          returned: 'default',
          uniqueness: 'none',
          referenceTypes: ['User'],
        },
        {
          name: 'displayName',
          type: 'string',
          multiValued: false,
          description: "The displayName of the User's manager. OPTIONAL and READ-ONLY.",
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
