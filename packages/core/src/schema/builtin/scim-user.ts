import type { ScimResource } from '../scim-resource.js';

/** A value of a multi-valued attribute such as `emails` (RFC 7643 §2.4, §4.1.2). */
export interface ScimMultiValue<T = string> {
  value?: T;
  display?: string;
  type?: string;
  primary?: boolean;
}

/** RFC 7643 §4.1.1 `name`. */
export interface ScimName {
  formatted?: string;
  familyName?: string;
  givenName?: string;
  middleName?: string;
  honorificPrefix?: string;
  honorificSuffix?: string;
}

/** RFC 7643 §4.1.2 `addresses`. */
export interface ScimAddress {
  formatted?: string;
  streetAddress?: string;
  locality?: string;
  region?: string;
  postalCode?: string;
  country?: string;
  type?: string;
  primary?: boolean;
}

/** RFC 7643 §4.1.2 `groups` (readOnly, assigned by the service provider). */
export interface ScimUserGroup {
  value?: string;
  $ref?: string;
  display?: string;
  type?: 'direct' | 'indirect' | (string & {});
}

/** RFC 7643 §4.3: the Enterprise User extension, under its URN key. */
export interface ScimEnterpriseUser {
  employeeNumber?: string;
  costCenter?: string;
  organization?: string;
  division?: string;
  department?: string;
  manager?: { value?: string; $ref?: string; displayName?: string };
}

/** A User resource as served (RFC 7643 §4.1, §8.2), with the optional Enterprise User extension. */
export interface ScimUser extends ScimResource {
  userName: string;
  name?: ScimName;
  displayName?: string;
  nickName?: string;
  profileUrl?: string;
  title?: string;
  userType?: string;
  preferredLanguage?: string;
  locale?: string;
  timezone?: string;
  active?: boolean;
  password?: string;
  emails?: ScimMultiValue[];
  phoneNumbers?: ScimMultiValue[];
  ims?: ScimMultiValue[];
  photos?: ScimMultiValue[];
  addresses?: ScimAddress[];
  groups?: ScimUserGroup[];
  entitlements?: ScimMultiValue[];
  roles?: ScimMultiValue[];
  x509Certificates?: ScimMultiValue[];
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'?: ScimEnterpriseUser;
}
