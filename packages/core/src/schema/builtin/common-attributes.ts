import type { AttributeDefinitionInput } from '../attribute-definition.js';
import { deepFreeze } from './deep-freeze.js';

/**
 * RFC 7643 §3.1: the common attributes `id`, `externalId` and `meta`, part of every resource type's
 * core schema without being listed in it. Their characteristics here take precedence over any schema
 * that lists them (RFC 7643 §3.1).
 */
export const commonAttributes: readonly AttributeDefinitionInput[] = deepFreeze([
  {
    name: 'id',
    type: 'string',
    multiValued: false,
    description:
      "A unique identifier for a SCIM resource as defined by the service provider.  Each representation of the resource MUST include a non-empty 'id' value.  This identifier MUST be unique across the SCIM service provider's entire set of resources.  It MUST be a stable, non-reassignable identifier that does not change when the same resource is returned in subsequent requests.  The value of the 'id' attribute is always issued by the service provider and MUST NOT be specified by the client.",
    // Always present once stored; the service provider assigns it, so a request never has to carry it.
    required: false,
    caseExact: true,
    mutability: 'readOnly',
    returned: 'always',
    uniqueness: 'server',
  },
  {
    name: 'externalId',
    type: 'string',
    multiValued: false,
    description:
      "A String that is an identifier for the resource as defined by the provisioning client.  The 'externalId' may simplify identification of a resource between the provisioning client and the service provider by allowing the client to use a filter to locate the resource with an identifier from the provisioning domain, obviating the need to store a local mapping between the provisioning domain's identifier of the resource and the identifier used by the service provider.",
    required: false,
    caseExact: true,
    mutability: 'readWrite',
    returned: 'default',
    uniqueness: 'none',
  },
  {
    name: 'meta',
    type: 'complex',
    multiValued: false,
    description:
      "A complex attribute containing resource metadata.  All 'meta' sub-attributes are assigned by the service provider (have a 'mutability' of 'readOnly'), and all of these sub-attributes have a 'returned' characteristic of 'default'.  This attribute SHALL be ignored when provided by clients.",
    required: false,
    mutability: 'readOnly',
    returned: 'default',
    subAttributes: [
      {
        name: 'resourceType',
        type: 'string',
        multiValued: false,
        description: 'The name of the resource type of the resource.',
        required: false,
        caseExact: true,
        mutability: 'readOnly',
        returned: 'default',
        uniqueness: 'none',
      },
      {
        name: 'created',
        type: 'dateTime',
        multiValued: false,
        description: "The 'DateTime' that the resource was added to the service provider.",
        required: false,
        mutability: 'readOnly',
        returned: 'default',
        uniqueness: 'none',
      },
      {
        name: 'lastModified',
        type: 'dateTime',
        multiValued: false,
        description:
          "The most recent DateTime that the details of this resource were updated at the service provider.  If this resource has never been modified since its initial creation, the value MUST be the same as the value of 'created'.",
        required: false,
        mutability: 'readOnly',
        returned: 'default',
        uniqueness: 'none',
      },
      {
        name: 'location',
        type: 'reference',
        multiValued: false,
        description:
          "The URI of the resource being returned.  This value MUST be the same as the 'Content-Location' HTTP response header.",
        required: false,
        caseExact: true,
        mutability: 'readOnly',
        returned: 'default',
        uniqueness: 'none',
        referenceTypes: ['uri'],
      },
      {
        name: 'version',
        type: 'string',
        multiValued: false,
        description:
          'The version of the resource being returned.  This value must be the same as the entity-tag (ETag) HTTP response header.',
        required: false,
        caseExact: true,
        mutability: 'readOnly',
        returned: 'default',
        uniqueness: 'none',
      },
    ],
  },
]);
