import { err, type Result } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import type { AttributeDefinition } from '../schema/attribute-definition.js';
import type { Filter } from './ast.js';
import { AttributeUsage, compileElementTest, refuseOverDeep } from './compile-node.js';

/** A compiled value filter: true when one element of a multi-valued attribute matches. */
export type ValueFilterPredicate = (element: unknown) => boolean;

/**
 * Compiles the filter of a value path, `attribute[filter]` (RFC 7644 §3.4.2.2 and the PATCH paths of
 * §3.5.2), into a test on one element of `attribute`, with exactly the semantics `compileFilter` gives
 * the same brackets: bare sub-attribute names resolved ignoring case, strings by `caseExact`,
 * dateTimes as instants, typed values. For a multi-valued attribute of simple values, `value` is the
 * element itself. Never throws: an unknown sub-attribute, a nested value path, or an operator or value
 * unfit for a sub-attribute's type is a 400 invalidFilter.
 */
export function compileValueFilter(filter: Filter, attribute: AttributeDefinition): Result<ValueFilterPredicate> {
  const usage = new AttributeUsage();
  const compiled = refuseOverDeep(() => compileElementTest(filter, attribute, attribute.name, usage));
  if (!compiled.ok) return compiled;
  const unknown = usage.firstUnknown();
  return unknown === undefined ? compiled : err(scimError('invalidFilter', `Invalid filter: ${unknown}`));
}
