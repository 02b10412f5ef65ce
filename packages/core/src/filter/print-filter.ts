import type { AttrPath, CompValue, Filter, LogicalFilter, PatchPath } from './ast.js';

/**
 * Prints a filter as canonical SCIM text (RFC 7644 §3.4.2.2): lower-case operators, single spaces,
 * JSON values, parentheses only where precedence needs them. `parseFilter(printFilter(f))` deep-equals
 * `f` for every filter the parser can produce. Long `and`/`or` chains are walked iteratively.
 */
export function printFilter(filter: Filter): string {
  switch (filter.kind) {
    case 'compare':
      return `${printAttrPath(filter.path)} ${filter.op} ${printCompValue(filter.value)}`;
    case 'present':
      return `${printAttrPath(filter.path)} pr`;
    case 'not':
      return `not (${printFilter(filter.filter)})`;
    case 'valuePath':
      return `${printAttrPath(filter.path)}[${printFilter(filter.filter)}]`;
    case 'and':
    case 'or':
      return printChain(filter);
  }
}

/** `a and b and c` is left-nested; a right operand of the same kind needs parentheses, as does `or` inside `and`. */
function printChain(filter: LogicalFilter): string {
  const operands: Filter[] = [];
  let node: Filter = filter;
  while (node.kind === filter.kind) {
    operands.push(node.right);
    node = node.left;
  }
  operands.push(node);
  operands.reverse();
  return operands
    .map((operand, index) => {
      const text = printFilter(operand);
      const sameKindOnTheRight = index > 0 && operand.kind === filter.kind;
      const orInsideAnd = filter.kind === 'and' && operand.kind === 'or';
      return sameKindOnTheRight || orInsideAnd ? `(${text})` : text;
    })
    .join(` ${filter.kind} `);
}

/** `[URI ":"] ATTRNAME ["." subAttr]` */
export function printAttrPath(path: AttrPath): string {
  const name = path.subAttr === undefined ? path.attr : `${path.attr}.${path.subAttr}`;
  return path.uri === undefined ? name : `${path.uri}:${name}`;
}

/** A PATCH path back to text: `attrPath`, `attrPath[filter]` or `attrPath[filter].subAttr`. */
export function printPatchPath(path: PatchPath): string {
  const base = printAttrPath(path.attrPath);
  const filtered = path.valueFilter === undefined ? base : `${base}[${printFilter(path.valueFilter)}]`;
  return path.subAttr === undefined ? filtered : `${filtered}.${path.subAttr}`;
}

function printCompValue(value: CompValue): string {
  if (typeof value === 'number' && Object.is(value, -0)) return '-0';
  return JSON.stringify(value);
}
