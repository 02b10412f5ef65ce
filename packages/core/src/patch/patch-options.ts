import type { FilterLimits } from '../filter/filter-limits.js';

/**
 * How `applyPatch` treats real clients' deviations from RFC 7644 §3.5.2 (see docs decisions,
 * "Real clients"), and its limits. Every tolerance is on by default where it is unambiguous.
 */
export interface PatchOptions {
  /** Accept "True"/"False" (any case) for boolean attributes, as Entra ID sends them. Default true. */
  readonly stringBooleans?: boolean;
  /**
   * `remove` with a `value` on a multi-valued attribute removes the elements that match each given
   * value (Entra ID: `{"op":"Remove","path":"members","value":[{"value":"<id>"}]}`). An element
   * matches when every non-null sub-attribute given equals its own (a null one must be absent).
   * When false, such a request is a 400 invalidValue (never "remove everything"). Default true.
   */
  readonly removeValueArray?: boolean;
  /**
   * Path-less `add`/`replace` whose value keys are attribute paths: `{"name.givenName": "X"}` or
   * `{"urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber": "42"}` (Entra ID).
   * Default true.
   */
  readonly pathKeysInValue?: boolean;
  /**
   * A bare string given for a complex attribute that has a `value` sub-attribute is read as
   * `{"value": string}`: Entra ID sends the enterprise `manager` as the manager's id; the Microsoft
   * SCIM validator adds `members` the same way. A one-element array given for a single-valued
   * complex attribute is read as its element (older Entra: `[{"$ref":null,"value":"<id>"}]`).
   * Default true.
   */
  readonly managerAsString?: boolean;
  /**
   * `replace` on `emails[type eq "work"].value` when no element matches creates
   * `{"type": "work", "value": …}` instead of answering 400 noTarget, as `add` always does (RFC 7644
   * §3.5.2.1). Only for filters made of `eq` comparisons joined by `and`. Default false (RFC 7644
   * §3.5.2.3 answers noTarget).
   */
  readonly createMissingValuePath?: boolean;
  /** Accept an empty `Operations` array (the Microsoft validator sends one) as a no-op. Default false. */
  readonly allowEmptyOperations?: boolean;
  /**
   * Attributes no schema of the resource type defines: `reject` (default) answers 400 invalidPath
   * for a path naming one and 400 invalidValue for a key of a value; `ignore` skips such operations
   * and drops such keys. `__proto__`, `constructor` and `prototype` are refused either way.
   * Pass the same policy as to `validateResource`.
   */
  readonly unknownAttributes?: 'reject' | 'ignore';
  /** Under `ignore`: called with the path of each operation skipped and each key dropped. */
  readonly onIgnored?: ((path: string) => void) | undefined;
  /** Most operations accepted in one request. Default 1000. */
  readonly maxOperations?: number;
  /**
   * Most element visits in one request, over all its operations: elements examined by value filters
   * (`emails[type eq "work"]`), by linear equality scans, by `primary: true` writes, and each value
   * an `add` appends. Adding or
   * removing values by `value` (group members) is indexed and counts 1 per 4 elements. Beyond it
   * the request is a 400 invalidValue and nothing is written. Default 5,000,000.
   */
  readonly maxElementVisits?: number;
  /** Limits on each `path` (length, nesting), passed to the path parser. */
  readonly pathLimits?: FilterLimits;
}

export interface ResolvedPatchOptions {
  readonly stringBooleans: boolean;
  readonly removeValueArray: boolean;
  readonly pathKeysInValue: boolean;
  readonly managerAsString: boolean;
  readonly createMissingValuePath: boolean;
  readonly allowEmptyOperations: boolean;
  readonly unknownAttributes: 'reject' | 'ignore';
  readonly onIgnored?: ((path: string) => void) | undefined;
  readonly maxOperations: number;
  readonly maxElementVisits: number;
  readonly pathLimits: FilterLimits | undefined;
}

export const DEFAULT_PATCH_OPTIONS: ResolvedPatchOptions = Object.freeze({
  stringBooleans: true,
  removeValueArray: true,
  pathKeysInValue: true,
  managerAsString: true,
  createMissingValuePath: false,
  allowEmptyOperations: false,
  unknownAttributes: 'reject',
  maxOperations: 1000,
  maxElementVisits: 5_000_000,
  pathLimits: undefined,
});

export function resolvePatchOptions(options: PatchOptions | undefined): ResolvedPatchOptions {
  if (options === undefined) return DEFAULT_PATCH_OPTIONS;
  // An option given as `undefined` keeps its default. Field by field: this runs on every request.
  const d = DEFAULT_PATCH_OPTIONS;
  return {
    stringBooleans: options.stringBooleans === undefined ? d.stringBooleans : options.stringBooleans,
    removeValueArray: options.removeValueArray === undefined ? d.removeValueArray : options.removeValueArray,
    pathKeysInValue: options.pathKeysInValue === undefined ? d.pathKeysInValue : options.pathKeysInValue,
    managerAsString: options.managerAsString === undefined ? d.managerAsString : options.managerAsString,
    createMissingValuePath: options.createMissingValuePath === undefined ? d.createMissingValuePath : options.createMissingValuePath,
    allowEmptyOperations: options.allowEmptyOperations === undefined ? d.allowEmptyOperations : options.allowEmptyOperations,
    unknownAttributes: options.unknownAttributes === undefined ? d.unknownAttributes : options.unknownAttributes,
    onIgnored: options.onIgnored,
    maxOperations: options.maxOperations === undefined ? d.maxOperations : options.maxOperations,
    maxElementVisits: options.maxElementVisits === undefined ? d.maxElementVisits : options.maxElementVisits,
    pathLimits: options.pathLimits === undefined ? d.pathLimits : options.pathLimits,
  };
}
