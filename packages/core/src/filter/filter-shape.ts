import type { AttrPath, CompareFilter, CompValue, Filter } from './ast.js';

/**
 * A filter's structure with its comparison values taken out: `key` spells the operators, the paths
 * as written and the JSON type of each value (`userName eq "a"` and `userName eq "b"` share one
 * key; `userName eq "a"` and `userName eq 1` do not), and `leaves` lists the comparisons in the
 * order the key names them, to read the values from. A store keys the translations it keeps by it
 * (docs/writing-a-store.md, "Capabilities: what to push down").
 */
export interface FilterShape {
  readonly key: string;
  readonly leaves: readonly CompareFilter[];
}

/**
 * The shape of `filter`, or undefined when it cannot stand for the filter: a comparison operator
 * outside RFC 7644 §3.4.2.2's, a value `keeps` refuses (one whose content, not only its type,
 * decides the store's translation), a path holding the key's separators (no parsed filter does), or
 * a tree too deep for the stack.
 */
export function filterShape(filter: Filter, keeps: (value: CompValue) => boolean = keepsAny): FilterShape | undefined {
  const leaves: CompareFilter[] = [];
  try {
    const key = shapeOf(filter, leaves, keeps);
    return key === undefined ? undefined : { key, leaves };
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/** The sort as a key part: the path as written and the order; '' for none, undefined for a path that cannot be one. */
export function sortShape(sort: { readonly path: AttrPath; readonly order: 'ascending' | 'descending' } | undefined): string | undefined {
  if (sort === undefined) return '';
  const path = pathKey(sort.path);
  return path === undefined ? undefined : `${sort.order === 'descending' ? 'd' : 'a'}${path}`;
}

function shapeOf(filter: Filter, leaves: CompareFilter[], keeps: (value: CompValue) => boolean): string | undefined {
  switch (filter.kind) {
    case 'and':
    case 'or': {
      const left = shapeOf(filter.left, leaves, keeps);
      const right = left === undefined ? undefined : shapeOf(filter.right, leaves, keeps);
      return right === undefined ? undefined : `${filter.kind === 'and' ? '&' : '|'}(${left},${right})`;
    }
    case 'not': {
      const inner = shapeOf(filter.filter, leaves, keeps);
      return inner === undefined ? undefined : `!(${inner})`;
    }
    case 'present': {
      const path = pathKey(filter.path);
      return path === undefined ? undefined : `p${path}`;
    }
    case 'compare': {
      const path = pathKey(filter.path);
      const kind = valueKind(filter.value);
      if (path === undefined || kind === undefined || !OPERATORS.has(filter.op) || !keeps(filter.value)) return undefined;
      leaves.push(filter);
      return `c${filter.op}${kind}${path}`;
    }
    case 'valuePath': {
      const path = pathKey(filter.path);
      const inner = path === undefined ? undefined : shapeOf(filter.filter, leaves, keeps);
      return inner === undefined ? undefined : `v${path}[${inner}]`;
    }
    default:
      return undefined;
  }
}

function keepsAny(): boolean {
  return true;
}

/** `s`, `n`, `b` or `0` (null). */
function valueKind(value: CompValue): string | undefined {
  if (value === null) return '0';
  switch (typeof value) {
    case 'string':
      return 's';
    case 'number':
      return 'n';
    case 'boolean':
      return 'b';
    default:
      return undefined;
  }
}

/** The path as written, its parts between separators no name holds. */
function pathKey(path: AttrPath): string | undefined {
  const { uri, attr, subAttr } = path;
  if (typeof attr !== 'string' || SEPARATORS.test(attr) || (uri !== undefined && SEPARATORS.test(uri)) || (subAttr !== undefined && SEPARATORS.test(subAttr))) return undefined;
  return `\u0001${uri === undefined ? '' : `${uri}\u0002`}${attr}${subAttr === undefined ? '' : `\u0003${subAttr}`}\u0004`;
}

const SEPARATORS = /[\u0000-\u0004]/;
const OPERATORS = new Set(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']);
