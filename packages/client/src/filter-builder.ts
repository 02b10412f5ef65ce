import type { CompareFilter, Filter } from '@scimkit/core/printer';
import { printFilter } from '@scimkit/core/printer';
import { toAttrPath } from './attr-path.js';
import type { GroupAttributeName, SubAttributeName, UserAttributeName } from './attribute-names.js';

/** A comparison value: JSON in the filter text (RFC 7644 §3.4.2.2); a Date is sent as its ISO 8601 instant. */
export type FilterValue = string | number | boolean | null | Date;

type CompareOperator = CompareFilter['op'];

/**
 * A filter built from parts. Its text comes from the core's printer (`printFilter`), which writes
 * every value as a JSON literal: a value can never close the string and add syntax, so no input
 * makes an injection. `toString()` is the text for the `filter` parameter.
 */
export class ScimFilter {
  constructor(readonly ast: Filter) {}
  toString(): string {
    return printFilter(this.ast);
  }
  toJSON(): string {
    return this.toString();
  }
  and(...others: ScimFilter[]): ScimFilter {
    return chain('and', [this, ...others]);
  }
  or(...others: ScimFilter[]): ScimFilter {
    return chain('or', [this, ...others]);
  }
}

/** The operators, each taking an attribute of `Name`. */
export interface FilterBuilder<Name extends string> {
  eq(attribute: Name, value: FilterValue): ScimFilter;
  ne(attribute: Name, value: FilterValue): ScimFilter;
  co(attribute: Name, value: FilterValue): ScimFilter;
  sw(attribute: Name, value: FilterValue): ScimFilter;
  ew(attribute: Name, value: FilterValue): ScimFilter;
  gt(attribute: Name, value: FilterValue): ScimFilter;
  ge(attribute: Name, value: FilterValue): ScimFilter;
  lt(attribute: Name, value: FilterValue): ScimFilter;
  le(attribute: Name, value: FilterValue): ScimFilter;
  /** `attribute pr`: has a value. */
  pr(attribute: Name): ScimFilter;
  and(...filters: ScimFilter[]): ScimFilter;
  or(...filters: ScimFilter[]): ScimFilter;
  not(filter: ScimFilter): ScimFilter;
  /**
   * `attribute[inner]`: one element of a multi-valued attribute satisfies `inner`, whose names are
   * relative to the element (`emails[type eq "work" and value co "@example.com"]`).
   */
  has(attribute: Name, inner: (element: FilterBuilder<SubAttributeName>) => ScimFilter): ScimFilter;
}

/** A filter builder over any attribute names (custom schemas): names are still checked at run time. */
export function filterBuilder<Name extends string = string>(): FilterBuilder<Name> {
  const compare =
    (op: CompareOperator) =>
    (attribute: Name, value: FilterValue): ScimFilter =>
      new ScimFilter({ kind: 'compare', path: toAttrPath(attribute), op, value: toCompValue(value) });
  const builder: FilterBuilder<Name> = {
    eq: compare('eq'),
    ne: compare('ne'),
    co: compare('co'),
    sw: compare('sw'),
    ew: compare('ew'),
    gt: compare('gt'),
    ge: compare('ge'),
    lt: compare('lt'),
    le: compare('le'),
    pr: (attribute) => new ScimFilter({ kind: 'present', path: toAttrPath(attribute) }),
    and: (...filters) => chain('and', filters),
    or: (...filters) => chain('or', filters),
    not: (filter) => new ScimFilter({ kind: 'not', filter: checked(filter).ast }),
    has: (attribute, inner) => {
      const path = toAttrPath(attribute);
      if (path.subAttr !== undefined) throw new TypeError(`A value filter applies to a multi-valued attribute, not to ${JSON.stringify(attribute)}`);
      return new ScimFilter({ kind: 'valuePath', path, filter: checked(inner(filterBuilder<SubAttributeName>())).ast });
    },
  };
  return builder;
}

/** Filters over the User schema's attribute names (RFC 7643 §4.1, §4.3). */
export const userFilter: FilterBuilder<UserAttributeName> = filterBuilder<UserAttributeName>();
/** Filters over the Group schema's attribute names (RFC 7643 §4.2). */
export const groupFilter: FilterBuilder<GroupAttributeName> = filterBuilder<GroupAttributeName>();
/** Filters over the sub-attributes of one element, for a PATCH value path (`emails[type eq "work"]`). */
export const elementFilter: FilterBuilder<SubAttributeName> = filterBuilder<SubAttributeName>();

function chain(kind: 'and' | 'or', filters: readonly ScimFilter[]): ScimFilter {
  const [first, ...rest] = filters;
  if (first === undefined) throw new TypeError(`${kind} needs at least one filter`);
  let ast = checked(first).ast;
  for (const next of rest) ast = { kind, left: ast, right: checked(next).ast };
  return new ScimFilter(ast);
}

function checked(filter: ScimFilter): ScimFilter {
  if (!(filter instanceof ScimFilter)) throw new TypeError('Expected a ScimFilter from the filter builder (text is not accepted here)');
  return filter;
}

function toCompValue(value: FilterValue): string | number | boolean | null {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new TypeError('Invalid Date in a filter');
    return value.toISOString();
  }
  if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError(`A filter number must be finite, got ${value}`);
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  throw new TypeError(`A filter value is a string, number, boolean, null or Date, got ${typeof value}`);
}
