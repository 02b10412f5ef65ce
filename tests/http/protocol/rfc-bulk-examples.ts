/*
 * The BulkRequest examples of RFC 7644 §3.7 (with the errata scim2-models applies), written out so
 * the suite runs without ../shared. When ../shared is present the suite checks they still match.
 */
const BULK = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';

/** §3.7.2: create Alice, then a group holding her through `bulkId:qwerty`. */
export const BULK_TEMPORARY_IDENTIFIER = {
  schemas: [BULK],
  Operations: [
    { method: 'POST', path: '/Users', bulkId: 'qwerty', data: { schemas: [USER], userName: 'Alice' } },
    { method: 'POST', path: '/Groups', bulkId: 'ytrewq', data: { schemas: [GROUP], displayName: 'Tour Guides', members: [{ type: 'User', value: 'bulkId:qwerty' }] } },
  ],
};

/** §3.7.1: two groups that contain each other. */
export const BULK_CIRCULAR = {
  schemas: [BULK],
  Operations: [
    { method: 'POST', path: '/Groups', bulkId: 'qwerty', data: { schemas: [GROUP], displayName: 'Group A', members: [{ type: 'Group', value: 'bulkId:ytrewq' }] } },
    { method: 'POST', path: '/Groups', bulkId: 'ytrewq', data: { schemas: [GROUP], displayName: 'Group B', members: [{ type: 'Group', value: 'bulkId:qwerty' }] } },
  ],
};

/**
 * §3.7.3: POST, PUT, PATCH (its `data` a bare array of operations) and DELETE with `failOnErrors`
 * 1. The POST names `urn:ietf:params:scim:api:messages:2.0:User`, which is not the User schema: the
 * RFC's own error example answers it 400.
 */
export const BULK_MULTIPLE_OPERATIONS = {
  schemas: [BULK],
  failOnErrors: 1,
  Operations: [
    { method: 'POST', path: '/Users', bulkId: 'qwerty', data: { schemas: ['urn:ietf:params:scim:api:messages:2.0:User'], userName: 'Alice' } },
    {
      method: 'PUT',
      path: '/Users/b7c14771-226c-4d05-8860-134711653041',
      version: 'W\\/"3694e05e9dff591"',
      data: { schemas: [USER], id: 'b7c14771-226c-4d05-8860-134711653041', userName: 'Bob' },
    },
    {
      method: 'PATCH',
      path: '/Users/5d8d29d3-342c-4b5f-8683-a3cb6763ffcc',
      version: 'W/"edac3253e2c0ef2"',
      data: [
        { op: 'remove', path: 'nickName' },
        { op: 'add', path: 'userName', value: 'Dave' },
      ],
    },
    { method: 'DELETE', path: '/Users/e9025315-6bea-44e1-899c-1e07454e468b', version: 'W\\/"0ee8add0a938e1a"' },
  ],
};
