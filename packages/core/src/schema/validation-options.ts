import type { MultiValuedChange } from '../store/scim-store.js';
import type { ScimResource } from './scim-resource.js';

/**
 * What the body being validated is:
 * - `create`: a POST body (RFC 7644 §3.3);
 * - `replace`: a PUT body replacing `existing` (RFC 7644 §3.5.1);
 * - `patch`: the resource that results from applying a PATCH to `existing` (RFC 7644 §3.5.2).
 *   With `touched` (and `changes`) from `applyPatch`, only what the PATCH changed is validated:
 *   a value that is the stored value itself (the same object: `applyPatch` shares what it did not
 *   write) was validated when it was stored, so it is taken as it is; of a multi-valued attribute in
 *   `changes`, only the elements after the stored ones it kept are checked. The errors are the same
 *   as validating the whole resource, provided `existing` was valid; the result may share objects
 *   with `existing`.
 */
export type ValidationContext =
  | { readonly operation: 'create' }
  | { readonly operation: 'replace'; readonly existing: ScimResource }
  | {
      readonly operation: 'patch';
      readonly existing: ScimResource;
      /** `PatchResult.touched`: top-level keys the PATCH wrote (schema spelling, extension URNs). */
      readonly touched?: ReadonlySet<string>;
      /**
       * `PatchResult.changes`: multi-valued attributes whose elements were only added or removed.
       * It must be the report of the `applyPatch` that produced this very body: when an
       * attribute's counts add up, its leading elements are taken to be the kept stored ones
       * without comparing them.
       */
      readonly changes?: readonly MultiValuedChange[];
    };

export interface ValidationOptions {
  /** Attributes no schema of the resource type defines: 400 invalidValue (`reject`, default) or dropped (`ignore`). */
  readonly unknownAttributes?: 'reject' | 'ignore';
  /** Under `unknownAttributes: 'ignore'`: called with the path of each attribute dropped (`nickName`, `name.middle`). */
  readonly onIgnored?: (path: string) => void;
  /** Accept the strings "True"/"False" (any case) for boolean attributes, as Entra ID sends them. Default true. */
  readonly stringBooleans?: boolean;
}
