import type { AttributeDefinitionInput } from '../../../schema/attribute-definition.js';

const readOnly = { required: false, caseExact: false, mutability: 'readOnly', returned: 'default', uniqueness: 'none', multiValued: false } as const;

/**
 * RFC 9865 §4 `pagination` of the ServiceProviderConfig, for its meta-schema in `/Schemas` (the
 * RFC gives no schema JSON; characteristics as the SCIM SDKs define them: read-only, `cursor` and
 * `index` required).
 */
export const PAGINATION_ATTRIBUTE: AttributeDefinitionInput = {
  ...readOnly,
  name: 'pagination',
  type: 'complex',
  description: 'A complex type that specifies pagination configuration options (RFC 9865).',
  subAttributes: [
    { ...readOnly, name: 'cursor', type: 'boolean', required: true, description: 'A Boolean value specifying support of cursor-based pagination.' },
    { ...readOnly, name: 'index', type: 'boolean', required: true, description: 'A Boolean value specifying support of index-based pagination.' },
    {
      ...readOnly,
      name: 'defaultPaginationMethod',
      type: 'string',
      description: 'The pagination method used when a request names none.',
      canonicalValues: ['cursor', 'index'],
    },
    { ...readOnly, name: 'defaultPageSize', type: 'integer', description: 'The number of results returned per page when a request gives no count.' },
    { ...readOnly, name: 'maxPageSize', type: 'integer', description: 'The most results returned in one page, whatever count says.' },
    { ...readOnly, name: 'cursorTimeout', type: 'integer', description: 'The minimum number of seconds a cursor stays valid between page requests.' },
  ],
};
