import type { ScimResource } from '../scim-resource.js';

/** RFC 7643 §4.2 `members`: `value` is the member's id, `type` is `User` or `Group`. */
export interface ScimGroupMember {
  value?: string;
  $ref?: string;
  type?: 'User' | 'Group' | (string & {});
  display?: string;
}

/** A Group resource as served (RFC 7643 §4.2, §8.4). */
export interface ScimGroup extends ScimResource {
  displayName: string;
  members?: ScimGroupMember[];
}
