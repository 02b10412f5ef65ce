/** The schema and message URNs of RFC 7643 §8 and RFC 7644 §3. */
export const SCIM_URN = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  enterpriseUser: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  listResponse: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  searchRequest: 'urn:ietf:params:scim:api:messages:2.0:SearchRequest',
  patchOp: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  bulkRequest: 'urn:ietf:params:scim:api:messages:2.0:BulkRequest',
  bulkResponse: 'urn:ietf:params:scim:api:messages:2.0:BulkResponse',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
} as const;
