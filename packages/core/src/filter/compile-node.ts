import { err, ok, type Result } from '../errors/result.js';
import { scimError } from '../errors/scim-error.js';
import { anyAt, type ValueTest } from './any-at.js';
import type { AttrPath, CompareFilter, Filter, LogicalFilter, PresentFilter, ValuePathFilter } from './ast.js';
import { compareTest } from './compare-test.js';
import { elementScope, multiValuedKeys, type FilterScope } from './filter-scope.js';
import { isNonEmpty } from './is-non-empty.js';
import { printAttrPath } from './print-filter.js';
import type { AttributeDefinition } from '../schema/attribute-definition.js';
import { topLevelEquality } from './top-level-equality.js';

/*
 * The compiler shared by compileFilter (whole resources) and compileValueFilter (elements): each AST
 * node becomes a closure over the object its scope resolves paths against, with every attribute
 * resolved, and every comparison value converted, once.
 */

const never: ValueTest = () => false;

/** Compiles `filter` against whole resources of one type (see resourceScope). */
export function compileInScope(filter: Filter, scope: FilterScope, usage: AttributeUsage): Result<ValueTest> {
  return refuseOverDeep(() => compileNode(filter, scope, usage));
}

/** Parsed trees nest at most 200 deep; a hand-built tree too deep for the stack is refused, not thrown. */
export function refuseOverDeep<T>(compile: () => Result<T>): Result<T> {
  try {
    return compile();
  } catch (error) {
    if (error instanceof RangeError) return err(scimError('invalidFilter', 'Invalid filter: the expression is nested too deeply'));
    throw error;
  }
}

/** Which filter leaves resolved in at least one searched type; the rest are unknown attributes. */
export class AttributeUsage {
  private readonly known = new Set<Filter>();
  private readonly unknown = new Map<Filter, string>();

  /** `where` follows the name of an unknown top-level attribute: the types searched, when several. */
  constructor(private readonly where = '') {}

  resolved(node: Filter): void {
    this.known.add(node);
  }

  missing(node: Filter, path: AttrPath, scope: FilterScope): void {
    if (this.unknown.has(node)) return;
    const name = printAttrPath(path);
    const message =
      scope.parent !== undefined ? `'${name}' is not a sub-attribute of '${scope.parent.name}'` : `unknown attribute '${name}'${this.where}`;
    this.unknown.set(node, message);
  }

  firstUnknown(): string | undefined {
    for (const [node, message] of this.unknown) if (!this.known.has(node)) return message;
    return undefined;
  }
}

function compileNode(node: Filter, scope: FilterScope, usage: AttributeUsage): Result<ValueTest> {
  switch (node?.kind) {
    case 'and':
    case 'or':
      return compileChain(node, scope, usage);
    case 'not': {
      const inner = compileNode(node.filter, scope, usage);
      if (!inner.ok) return inner;
      const test = inner.value;
      return ok((holder) => !test(holder));
    }
    case 'compare':
    case 'present':
      return compileLeaf(node, scope, usage);
    case 'valuePath':
      return compileValuePath(node, scope, usage);
    default:
      return err(scimError('invalidFilter', 'Invalid filter: not a filter expression'));
  }
}

/** `a and b and c` is a left-nested chain; walk it without recursion and test the operands in order. */
function compileChain(node: LogicalFilter, scope: FilterScope, usage: AttributeUsage): Result<ValueTest> {
  const operands: Filter[] = [];
  let current: Filter = node;
  while (current.kind === node.kind) {
    operands.push(current.right);
    current = current.left;
  }
  operands.push(current);
  operands.reverse();
  const tests: ValueTest[] = [];
  for (const operand of operands) {
    const compiled = compileNode(operand, scope, usage);
    if (!compiled.ok) return compiled;
    tests.push(compiled.value);
  }
  const [first, second] = tests as [ValueTest, ValueTest];
  if (node.kind === 'and') {
    if (tests.length === 2) return ok((holder) => first(holder) && second(holder));
    return ok((holder) => {
      for (let i = 0; i < tests.length; i++) if (!(tests[i] as ValueTest)(holder)) return false;
      return true;
    });
  }
  if (tests.length === 2) return ok((holder) => first(holder) || second(holder));
  return ok((holder) => {
    for (let i = 0; i < tests.length; i++) if ((tests[i] as ValueTest)(holder)) return true;
    return false;
  });
}

function describe(path: AttrPath, scope: FilterScope): string {
  const name = printAttrPath(path);
  return scope.parent === undefined ? name : `${scope.parent.name}[${name}]`;
}

function compileLeaf(node: CompareFilter | PresentFilter, scope: FilterScope, usage: AttributeUsage): Result<ValueTest> {
  const path = node.path;
  const resolved = scope.resolve(path);
  if (resolved === undefined) {
    usage.missing(node, path, scope);
    return ok(never);
  }
  usage.resolved(node);
  const name = describe(path, scope);
  if (resolved.target.returned === 'never' || resolved.attribute.returned === 'never') {
    return err(scimError('invalidFilter', `Invalid filter: '${name}' is never returned and cannot be filtered on`));
  }
  const multiValued = multiValuedKeys(resolved);
  const present = anyAt(resolved.keys, multiValued, isNonEmpty);
  if (node.kind === 'present') return ok(present);
  if (node.value === null) {
    // `eq null` holds when the attribute is unassigned; `ne null` when it has a value (RFC 7643 §2.5).
    if (node.op === 'eq') return ok((holder) => !present(holder));
    if (node.op === 'ne') return ok(present);
    return err(scimError('invalidFilter', `Invalid filter: null can only be compared with eq or ne, not '${node.op}' ('${name}')`));
  }
  let keys = resolved.keys;
  let target = resolved.target;
  if (target.type === 'complex' && target.multiValued) {
    // A multi-valued complex attribute named without a sub-attribute compares its `value` (RFC 7644 §3.4.2.2, `emails co "example.com"`).
    const value = target.subAttributes?.find((sub) => sub.name.toLowerCase() === 'value');
    if (value === undefined) {
      return err(scimError('invalidFilter', `Invalid filter: '${name}' has no 'value' sub-attribute to compare; name one of its sub-attributes`));
    }
    keys = [...keys, value.name];
    multiValued.push(value.multiValued);
    target = value;
  }
  // `ne` is the negation of `eq` (docs/concepts/filters.md, as Ping's UnboundID SDK evaluates it): it holds when
  // no value equals, including when the attribute is unassigned. The operand checks are those of `eq`.
  const op = node.op === 'ne' ? 'eq' : node.op;
  const test = compareTest(target, op, node.value, name);
  if (!test.ok) return test;
  const lifted =
    op === 'eq' && typeof node.value === 'string' && keys.length === 1 && multiValued[0] === false && (target.type === 'string' || target.type === 'reference')
      ? topLevelEquality(keys[0] as string, node.value, target.caseExact)
      : anyAt(keys, multiValued, test.value);
  if (node.op !== 'ne') return ok(lifted);
  return ok((holder) => !lifted(holder));
}

function compileValuePath(node: ValuePathFilter, scope: FilterScope, usage: AttributeUsage): Result<ValueTest> {
  const name = describe(node.path, scope);
  if (scope.parent !== undefined) {
    return err(scimError('invalidFilter', `Invalid filter: a value filter cannot contain another value filter ('${name}')`));
  }
  const resolved = scope.resolve(node.path);
  if (resolved === undefined) {
    usage.missing(node, node.path, scope);
    return ok(never);
  }
  usage.resolved(node);
  if (resolved.subAttribute !== undefined) {
    return err(scimError('invalidFilter', `Invalid filter: '${name}[…]' needs a complex or multi-valued attribute, and '${name}' is neither`));
  }
  const inner = compileElementTest(node.filter, resolved.target, name, usage);
  if (!inner.ok) return inner;
  return ok(anyAt(resolved.keys, multiValuedKeys(resolved), inner.value));
}

/**
 * The test `attribute[filter]` applies to each element of `attribute` (RFC 7644 §3.4.2.2, Table 5:
 * the conditions hold on one and the same value). `attribute` is complex, or multi-valued with
 * simple elements that `value` names.
 */
export function compileElementTest(filter: Filter, attribute: AttributeDefinition, name: string, usage: AttributeUsage): Result<ValueTest> {
  if (attribute.type !== 'complex' && !attribute.multiValued) {
    return err(scimError('invalidFilter', `Invalid filter: '${name}[…]' needs a complex or multi-valued attribute, and '${name}' is neither`));
  }
  if (attribute.returned === 'never') {
    return err(scimError('invalidFilter', `Invalid filter: '${name}' is never returned and cannot be filtered on`));
  }
  const inner = compileNode(filter, elementScope(attribute), usage);
  if (!inner.ok || attribute.type !== 'complex') return inner;
  const test = inner.value;
  return ok((element) => typeof element === 'object' && element !== null && !Array.isArray(element) && test(element));
}

