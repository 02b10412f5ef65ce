import { err, ok, type Result } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import type { AttrPath, CompareOperator, CompValue, Filter } from '../filter/ast.js';
import type { AttributeDefinition } from '../schema/attribute-definition.js';
import { isJsonObject, getKey, isUnassigned } from './json-value.js';

/** Tests one element of a multi-valued attribute. */
export type ElementPredicate = (element: unknown) => boolean;

/**
 * Compiles the filter of a PATCH `valuePath` (RFC 7644 §3.5.2, `attr[valFilter]`) into a test on
 * one element of the multi-valued attribute `attribute`. Paths in the filter name sub-attributes
 * of the element, resolved ignoring case; for a multi-valued attribute of simple values the
 * element itself is `value`. Comparison follows RFC 7644 §3.4.2.2: strings by `caseExact`,
 * dateTime as instants, booleans with `eq`/`ne` only.
 */
export function compileElementFilter(filter: Filter, attribute: AttributeDefinition, at: string): Result<ElementPredicate> {
  switch (filter.kind) {
    case 'and':
    case 'or': {
      const left = compileElementFilter(filter.left, attribute, at);
      if (!left.ok) return left;
      const right = compileElementFilter(filter.right, attribute, at);
      if (!right.ok) return right;
      const l = left.value;
      const r = right.value;
      return ok(filter.kind === 'and' ? (e) => l(e) && r(e) : (e) => l(e) || r(e));
    }
    case 'not': {
      const inner = compileElementFilter(filter.filter, attribute, at);
      if (!inner.ok) return inner;
      const f = inner.value;
      return ok((e) => !f(e));
    }
    case 'valuePath':
      return err(scimError('invalidPath', `${at}: a value filter cannot contain another value filter`));
    case 'present': {
      const target = resolveInner(filter.path, attribute, at);
      if (!target.ok) return target;
      const read = target.value.read;
      return ok((e) => !isUnassigned(read(e)) && read(e) !== '');
    }
    case 'compare': {
      const target = resolveInner(filter.path, attribute, at);
      if (!target.ok) return target;
      const { definition, read } = target.value;
      const problem = compareProblem(definition, filter.op, filter.value);
      if (problem !== undefined) return err(scimError('invalidFilter', `${at}: ${problem}`));
      const { op, value } = filter;
      return ok((e) => compareValue(definition, read(e), op, value));
    }
  }
}

interface InnerAttribute {
  readonly definition: AttributeDefinition;
  readonly read: (element: unknown) => unknown;
}

function resolveInner(path: AttrPath, attribute: AttributeDefinition, at: string): Result<InnerAttribute> {
  const name = innerName(path, attribute);
  const unknown = err(scimError('invalidPath', `${at}: "${printPath(path)}" is not a sub-attribute of "${attribute.name}"`));
  if (name === undefined) return unknown;
  const subs = attribute.subAttributes;
  if (subs === undefined || subs.length === 0) {
    // A multi-valued attribute of simple values: the element itself is its `value`.
    if (name.toLowerCase() !== 'value') return unknown;
    return ok({ definition: attribute, read: (e) => e });
  }
  const lower = name.toLowerCase();
  const definition = subs.find((s) => s.name.toLowerCase() === lower);
  if (definition === undefined) return unknown;
  const key = definition.name;
  return ok({ definition, read: (e) => (isJsonObject(e) ? getKey(e, key) : undefined) });
}

/** `type`, or the same written relative to the attribute: `emails.type` inside `emails[…]`. */
function innerName(path: AttrPath, attribute: AttributeDefinition): string | undefined {
  if (path.uri !== undefined) return undefined;
  if (path.subAttr === undefined) return path.attr;
  return path.attr.toLowerCase() === attribute.name.toLowerCase() ? path.subAttr : undefined;
}

function printPath(path: AttrPath): string {
  const base = path.uri !== undefined ? `${path.uri}:${path.attr}` : path.attr;
  return path.subAttr !== undefined ? `${base}.${path.subAttr}` : base;
}

const ORDERING: ReadonlySet<CompareOperator> = new Set(['gt', 'lt', 'ge', 'le']);
const SUBSTRING: ReadonlySet<CompareOperator> = new Set(['co', 'sw', 'ew']);

/** RFC 7644 §3.4.2.2: `gt`/`ge`/`lt`/`le` on booleans or binary, and anything on complex values, is a 400 invalidFilter. */
function compareProblem(definition: AttributeDefinition, op: CompareOperator, value: CompValue): string | undefined {
  if (definition.type === 'complex') return `"${definition.name}" is complex and can only be tested with "pr"`;
  if ((definition.type === 'boolean' || definition.type === 'binary') && ORDERING.has(op)) {
    return `"${op}" cannot compare the ${definition.type} attribute "${definition.name}"`;
  }
  if (value === null && op !== 'eq' && op !== 'ne') return `"${op}" cannot compare with null`;
  return undefined;
}

function compareValue(definition: AttributeDefinition, actual: unknown, op: CompareOperator, expected: CompValue): boolean {
  if (Array.isArray(actual)) return actual.some((item) => compareValue(definition, item, op, expected));
  if (expected === null || actual === undefined || actual === null) {
    const absent = actual === undefined || actual === null;
    if (op === 'eq') return absent && expected === null;
    if (op === 'ne') return !(absent && expected === null);
    return false;
  }
  switch (definition.type) {
    case 'boolean':
      return op === 'eq' ? actual === expected : op === 'ne' ? actual !== expected : false;
    case 'integer':
    case 'decimal':
      if (typeof actual !== 'number' || typeof expected !== 'number') return op === 'ne';
      return order(op, actual - expected);
    case 'dateTime': {
      if (typeof actual !== 'string' || typeof expected !== 'string') return op === 'ne';
      if (SUBSTRING.has(op)) return compareString(actual, op, expected, definition.caseExact);
      const a = Date.parse(actual);
      const b = Date.parse(expected);
      if (Number.isNaN(a) || Number.isNaN(b)) return compareString(actual, op, expected, true);
      return order(op, a - b);
    }
    default:
      if (typeof actual !== 'string' || typeof expected !== 'string') {
        return op === 'eq' ? actual === expected : op === 'ne' ? actual !== expected : false;
      }
      return compareString(actual, op, expected, definition.caseExact);
  }
}

function compareString(actual: string, op: CompareOperator, expected: string, caseExact: boolean): boolean {
  const a = caseExact ? actual : actual.toLowerCase();
  const b = caseExact ? expected : expected.toLowerCase();
  switch (op) {
    case 'co':
      return a.includes(b);
    case 'sw':
      return a.startsWith(b);
    case 'ew':
      return a.endsWith(b);
    default:
      return order(op, a < b ? -1 : a > b ? 1 : 0);
  }
}

function order(op: CompareOperator, difference: number): boolean {
  switch (op) {
    case 'eq':
      return difference === 0;
    case 'ne':
      return difference !== 0;
    case 'gt':
      return difference > 0;
    case 'ge':
      return difference >= 0;
    case 'lt':
      return difference < 0;
    case 'le':
      return difference <= 0;
    default:
      return false;
  }
}
