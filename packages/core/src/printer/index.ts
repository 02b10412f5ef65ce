/**
 * @scimkit/core/printer: the filter and PATCH path printer alone (RFC 7644 §3.4.2.2, §3.5.2), for
 * clients that build filters from parts (`@scimkit/client`) and must not bundle the parser: this
 * entry imports nothing at run time. `parseFilter(printFilter(f))` deep-equals `f`, and every value
 * is printed as a JSON literal, so a value can never add filter syntax.
 *
 * These names follow the same semver rules as the main entry (docs/versioning.md).
 *
 * @module @scimkit/core/printer
 */
export { printFilter, printAttrPath, printPatchPath } from '../filter/print-filter.js';
export type { AttrPath, CompareFilter, CompareOperator, CompValue, Filter, LogicalFilter, NotFilter, PatchPath, PresentFilter, ValuePathFilter } from '../filter/ast.js';
