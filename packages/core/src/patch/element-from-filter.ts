import type { Filter } from '../filter/ast.js';
import type { AttributeDefinition } from '../schema/attribute-definition.js';
import { type JsonObject, findSubAttribute } from '../values/index.js';

/**
 * The element a value filter describes, for `createMissingValuePath`: `type eq "work"` gives
 * `{type: "work"}`. Only `eq` comparisons with a non-null value on sub-attributes of `attribute`,
 * joined by `and`; anything else describes no single element (undefined).
 */
export function elementFromFilter(filter: Filter, attribute: AttributeDefinition): JsonObject | undefined {
  const out: JsonObject = {};
  return collect(filter, attribute, out) ? out : undefined;
}

function collect(filter: Filter, attribute: AttributeDefinition, out: JsonObject): boolean {
  if (filter.kind === 'and') return collect(filter.left, attribute, out) && collect(filter.right, attribute, out);
  if (filter.kind !== 'compare' || filter.op !== 'eq' || filter.value === null) return false;
  const { path } = filter;
  if (path.uri !== undefined) return false;
  const name = path.subAttr === undefined ? path.attr : path.attr.toLowerCase() === attribute.name.toLowerCase() ? path.subAttr : undefined;
  if (name === undefined) return false;
  const sub = findSubAttribute(attribute, name);
  if (sub === undefined || sub.type === 'complex' || sub.mutability === 'readOnly') return false;
  if (Object.prototype.hasOwnProperty.call(out, sub.name) && out[sub.name] !== filter.value) return false;
  out[sub.name] = filter.value;
  return true;
}
