/**
 * @scimkit/core/engine: the engines the server runs on, for stores, tools and tests that need
 * them directly: the filter language (parse, print, compile to predicates and comparators), the
 * PATCH engine, and validation and projection against a resource type. An application serving SCIM
 * needs none of it: `@scimkit/core` is the server, its configuration and the storage contract.
 *
 * These names follow the same semver rules as the main entry (docs/versioning.md).
 *
 * @module @scimkit/core/engine
 */

// The filter language (RFC 7644 §3.4.2.2): parse, print, and compile to predicates and comparators.
export {
  parseFilter,
  parsePatchPath,
  parseAttrPath,
  parseAttrPathList,
  printFilter,
  printAttrPath,
  printPatchPath,
  compileFilter,
  compileSort,
  sortResources,
  compileValueFilter,
  DEFAULT_FILTER_LIMITS,
  filterShape,
  sortShape,
} from '../filter/index.js';
export type { PatchPath, FilterShape, FilterLimits, FilterOptions, ResourcePredicate, ResourceComparator, SortOrder, ValueFilterPredicate } from '../filter/index.js';

// PATCH (RFC 7644 §3.5.2): apply a PatchOp body to a resource, atomically.
export { applyPatch } from '../patch/index.js';
export type { PatchResult, PatchOptions } from '../patch/index.js';

// Validation and projection of resources against a resource type (RFC 7643 §2, RFC 7644 §3.9).
export { validateResource, projectResource } from '../schema/index.js';
export type { ValidationContext, ValidationOptions, AttributeSelection } from '../schema/index.js';
