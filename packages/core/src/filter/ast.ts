/**
 * The typed AST of the SCIM filter language (RFC 7644 §3.4.2.2, Figure 1) and of PATCH paths
 * (RFC 7644 §3.5.2, Figure 5). Names keep the spelling the client wrote; resolution against a
 * schema (case-insensitive) happens later, in the evaluator or the PATCH engine.
 */

/** `[URI ":"] ATTRNAME ["." subAttr]` */
export interface AttrPath {
  /** Schema URN prefix, e.g. `urn:ietf:params:scim:schemas:extension:enterprise:2.0:User`. */
  readonly uri?: string;
  readonly attr: string;
  readonly subAttr?: string;
}

export type CompareOperator = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'lt' | 'ge' | 'le';
export type CompValue = string | number | boolean | null;

/** `attrPath SP compareOp SP compValue` */
export interface CompareFilter {
  readonly kind: 'compare';
  readonly path: AttrPath;
  readonly op: CompareOperator;
  readonly value: CompValue;
}

/** `attrPath SP "pr"` */
export interface PresentFilter {
  readonly kind: 'present';
  readonly path: AttrPath;
}

export interface LogicalFilter {
  readonly kind: 'and' | 'or';
  readonly left: Filter;
  readonly right: Filter;
}

/** `"not" "(" valFilter ")"` */
export interface NotFilter {
  readonly kind: 'not';
  readonly filter: Filter;
}

/**
 * `attrPath "[" valFilter "]"`: the inner filter holds on one and the same element of the
 * multi-valued complex attribute `path`. Paths inside `filter` are relative to that element.
 * Entra's `emails[type eq "work"].value eq "x"` parses to a valuePath whose `filter` is
 * `type eq "work" and value eq "x"`.
 */
export interface ValuePathFilter {
  readonly kind: 'valuePath';
  readonly path: AttrPath;
  readonly filter: Filter;
}

export type Filter = CompareFilter | PresentFilter | LogicalFilter | NotFilter | ValuePathFilter;

/**
 * A PATCH `path` (RFC 7644 §3.5.2): `attrPath`, `valuePath` or `valuePath.subAttr`.
 * `emails[type eq "work"].value` → `{ attrPath: {attr: "emails"}, valueFilter: …, subAttr: "value" }`.
 */
export interface PatchPath {
  readonly attrPath: AttrPath;
  readonly valueFilter?: Filter;
  readonly subAttr?: string;
}
