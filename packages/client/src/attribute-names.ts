/**
 * The attribute names of the core schemas (RFC 7643 §4), as filters, `sortBy`, `attributes` and
 * PATCH paths spell them: top-level names and `name.sub` paths. Builders typed with these names
 * catch a misspelt attribute at compile time; custom attributes use a builder typed `string`.
 */

type Common = 'id' | 'externalId' | 'meta' | 'meta.resourceType' | 'meta.created' | 'meta.lastModified' | 'meta.location' | 'meta.version';
type MultiValuedNames<A extends string, Sub extends string = 'value' | 'display' | 'type' | 'primary'> = A | `${A}.${Sub}`;

/** The Enterprise User extension's URN (RFC 7643 §4.3). */
export type EnterpriseUserUrn = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

/** Attribute names of the User schema (RFC 7643 §4.1) and the Enterprise User extension (§4.3). */
export type UserAttributeName =
  | Common
  | 'userName'
  | 'name'
  | `name.${'formatted' | 'familyName' | 'givenName' | 'middleName' | 'honorificPrefix' | 'honorificSuffix'}`
  | 'displayName'
  | 'nickName'
  | 'profileUrl'
  | 'title'
  | 'userType'
  | 'preferredLanguage'
  | 'locale'
  | 'timezone'
  | 'active'
  | 'password'
  | MultiValuedNames<'emails' | 'phoneNumbers' | 'ims' | 'photos' | 'entitlements' | 'roles' | 'x509Certificates'>
  | MultiValuedNames<'addresses', 'formatted' | 'streetAddress' | 'locality' | 'region' | 'postalCode' | 'country' | 'type' | 'primary'>
  | MultiValuedNames<'groups', 'value' | '$ref' | 'display' | 'type'>
  | `${EnterpriseUserUrn}:${'employeeNumber' | 'costCenter' | 'organization' | 'division' | 'department' | 'manager' | 'manager.value' | 'manager.$ref' | 'manager.displayName'}`;

/** Attribute names of the Group schema (RFC 7643 §4.2). */
export type GroupAttributeName = Common | 'displayName' | MultiValuedNames<'members', 'value' | '$ref' | 'type' | 'display'>;

/** Sub-attribute names inside a value filter (`emails[type eq "work"]`): relative to one element. */
export type SubAttributeName = 'value' | 'display' | 'type' | 'primary' | '$ref' | (string & {});
