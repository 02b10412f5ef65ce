import { err, ok, type Result } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import type { AttributeDefinition } from '../schema/attribute-definition.js';
import { isDateTime } from '../schema/is-date-time.js';
import { comparisonKey } from '../values/index.js';
import type { ValueTest } from './any-at.js';
import type { CompareOperator, CompValue } from './ast.js';
import { dateTimeInstant } from './date-time-instant.js';

/** `ne` is compiled as the negation of `eq` (see compile-node.ts), so no value test exists for it. */
export type TestedOperator = Exclude<CompareOperator, 'ne'>;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The test one attribute value must pass for `attr op value` (RFC 7644 §3.4.2.2, Table 3), built once
 * with the comparison value converted (lower-cased for caseExact false, parsed for dateTime). The
 * operator and value must suit the attribute's type, else 400 invalidFilter. `null` is handled by the
 * caller (it is about presence, not a value).
 */
export function compareTest(target: AttributeDefinition, op: TestedOperator, value: Exclude<CompValue, null>, name: string): Result<ValueTest> {
  switch (target.type) {
    case 'string':
    case 'reference':
      if (typeof value !== 'string') return mismatch(name, target, 'a string in double quotes');
      return ok(stringTest(op, value, target.caseExact));
    case 'binary':
      // RFC 7644 §3.4.2.2: ordering a binary is a 400; substrings of base64 text mean nothing.
      if (op !== 'eq') return unsupported(op, name, target, 'eq or ne');
      if (typeof value !== 'string') return mismatch(name, target, 'a base64 string in double quotes');
      return ok(stringTest(op, value, true));
    case 'boolean':
      if (op !== 'eq') return unsupported(op, name, target, 'eq or ne');
      if (typeof value !== 'boolean') return mismatch(name, target, 'true or false');
      return ok((v) => v === value);
    case 'integer':
    case 'decimal':
      if (op === 'co' || op === 'sw' || op === 'ew') return unsupported(op, name, target, 'eq, ne, gt, ge, lt or le');
      if (typeof value !== 'number') return mismatch(name, target, 'a number');
      return ok(numberTest(op, value));
    case 'dateTime': {
      if (op === 'co' || op === 'sw' || op === 'ew') return unsupported(op, name, target, 'eq, ne, gt, ge, lt or le');
      const instant = typeof value === 'string' && (isDateTime(value) || DATE_ONLY.test(value)) ? dateTimeInstant(value) : Number.NaN;
      if (Number.isNaN(instant)) return mismatch(name, target, 'a date and time in double quotes, e.g. "2011-05-13T04:42:34Z"');
      return ok(dateTimeTest(op, instant));
    }
    case 'complex':
      return err(scimError('invalidFilter', `Invalid filter: '${name}' is a complex attribute; compare one of its sub-attributes, e.g. '${name}.${target.subAttributes?.[0]?.name ?? 'value'}'`));
  }
}

function mismatch(name: string, target: AttributeDefinition, expected: string): Result<never> {
  return err(scimError('invalidFilter', `Invalid filter: '${name}' is of type ${target.type}; the comparison value must be ${expected}`));
}

function unsupported(op: TestedOperator, name: string, target: AttributeDefinition, allowed: string): Result<never> {
  return err(
    scimError('invalidFilter', `Invalid filter: the operator '${op}' cannot be used on '${name}', which is of type ${target.type}; use ${allowed}`),
  );
}

function stringTest(op: TestedOperator, value: string, caseExact: boolean): ValueTest {
  if (caseExact) {
    switch (op) {
      case 'eq': return (v) => v === value;
      case 'co': return (v) => typeof v === 'string' && v.includes(value);
      case 'sw': return (v) => typeof v === 'string' && v.startsWith(value);
      case 'ew': return (v) => typeof v === 'string' && v.endsWith(value);
      case 'gt': return (v) => typeof v === 'string' && v > value;
      case 'ge': return (v) => typeof v === 'string' && v >= value;
      case 'lt': return (v) => typeof v === 'string' && v < value;
      case 'le': return (v) => typeof v === 'string' && v <= value;
    }
  }
  // RFC 7643 §2.2 caseExact false: every operator compares the key stores index (NFC, then a
  // locale-free lower-casing; see docs/concepts/filters.md), so `co "é"` finds `Jose\u0301` as `eq` does.
  const key = comparisonKey(value, false);
  switch (op) {
    case 'eq': return (v) => typeof v === 'string' && comparisonKey(v, false) === key;
    case 'co': return (v) => typeof v === 'string' && comparisonKey(v, false).includes(key);
    case 'sw': return (v) => typeof v === 'string' && comparisonKey(v, false).startsWith(key);
    case 'ew': return (v) => typeof v === 'string' && comparisonKey(v, false).endsWith(key);
    case 'gt': return (v) => typeof v === 'string' && comparisonKey(v, false) > key;
    case 'ge': return (v) => typeof v === 'string' && comparisonKey(v, false) >= key;
    case 'lt': return (v) => typeof v === 'string' && comparisonKey(v, false) < key;
    case 'le': return (v) => typeof v === 'string' && comparisonKey(v, false) <= key;
  }
}

function numberTest(op: Exclude<TestedOperator, 'co' | 'sw' | 'ew'>, value: number): ValueTest {
  switch (op) {
    case 'eq': return (v) => v === value;
    case 'gt': return (v) => typeof v === 'number' && v > value;
    case 'ge': return (v) => typeof v === 'number' && v >= value;
    case 'lt': return (v) => typeof v === 'number' && v < value;
    case 'le': return (v) => typeof v === 'number' && v <= value;
  }
}

function dateTimeTest(op: Exclude<TestedOperator, 'co' | 'sw' | 'ew'>, instant: number): ValueTest {
  const at = (v: unknown): number => (typeof v === 'string' ? dateTimeInstant(v) : Number.NaN);
  switch (op) {
    case 'eq': return (v) => at(v) === instant;
    case 'gt': return (v) => at(v) > instant;
    case 'ge': return (v) => at(v) >= instant;
    case 'lt': return (v) => at(v) < instant;
    case 'le': return (v) => at(v) <= instant;
  }
}
