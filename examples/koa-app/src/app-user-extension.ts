import { userResourceType, type ResourceTypeDefinitionInput, type SchemaDefinitionInput } from '@scimkit/core';

export const APP_USER_EXTENSION = 'urn:example:params:scim:schemas:extension:app:2.0:User';

/** What this app keeps about a user beyond RFC 7643, as a schema extension (RFC 7643 §3.3). */
export const appUserExtension: SchemaDefinitionInput = {
  id: APP_USER_EXTENSION,
  name: 'AppUser',
  description: 'Application-specific user attributes',
  attributes: [
    { name: 'plan', type: 'string', canonicalValues: ['free', 'team', 'enterprise'], description: 'Subscription plan' },
    { name: 'seat', type: 'integer', uniqueness: 'server', description: 'Licensed seat number, one user per seat' },
  ],
};

/** The built-in User resource type, with the Enterprise extension and this app's. */
export const appUserResourceType: ResourceTypeDefinitionInput = {
  ...userResourceType,
  schemaExtensions: [...(userResourceType.schemaExtensions ?? []), { schema: APP_USER_EXTENSION, required: false }],
};
