import type { ScimResource } from './scim-resource.js';

/**
 * What the body being validated is:
 * - `create`: a POST body (RFC 7644 §3.3);
 * - `replace`: a PUT body replacing `existing` (RFC 7644 §3.5.1);
 * - `patch`: the resource that results from applying a PATCH to `existing` (RFC 7644 §3.5.2).
 */
export type ValidationContext =
  | { readonly operation: 'create' }
  | { readonly operation: 'replace'; readonly existing: ScimResource }
  | { readonly operation: 'patch'; readonly existing: ScimResource };

export interface ValidationOptions {
  /** Attributes no schema of the resource type defines: 400 invalidValue (`reject`, default) or dropped (`ignore`). */
  readonly unknownAttributes?: 'reject' | 'ignore';
  /** Accept the strings "True"/"False" (any case) for boolean attributes, as Entra ID sends them. Default true. */
  readonly stringBooleans?: boolean;
}
