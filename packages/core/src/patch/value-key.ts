import type { AttributeDefinition } from '../schema/attribute-definition.js';
import { getKey, isJsonObject } from './json-value.js';
import { findSubAttribute } from './normalize-value.js';

/** A function giving an element's identity as a string, or undefined when it has none to index by. */
export type ValueKey = (element: unknown) => string | undefined;

/**
 * The identity multi-valued elements are matched by, as an index key: the `value` sub-attribute of
 * a complex element (a member id, an email address), or a simple element itself, folded to lower
 * case unless `caseExact`. Two elements can only match (see `entryMatcher`, `removalMatcher`) when
 * their keys are equal, so adding or removing k values among n costs O(n + k), not O(n·k).
 * Undefined when the attribute's values are not strings.
 */
export function valueKeyOf(definition: AttributeDefinition): ValueKey | undefined {
  let key = valueKeys.get(definition);
  if (key === undefined) {
    key = build(definition) ?? NONE;
    valueKeys.set(definition, key);
  }
  return key === NONE ? undefined : key;
}

/** The function of each definition, made once (definitions are immutable); NONE for no identity. */
const valueKeys = new WeakMap<AttributeDefinition, ValueKey>();
const NONE: ValueKey = () => undefined;

function build(definition: AttributeDefinition): ValueKey | undefined {
  const identity = definition.type === 'complex' ? findSubAttribute(definition, 'value') : definition;
  if (identity === undefined || (identity.type !== 'string' && identity.type !== 'reference')) return undefined;
  const fold = !identity.caseExact;
  const complex = definition.type === 'complex';
  return (element) => {
    const value = complex ? (isJsonObject(element) ? getKey(element, 'value') : undefined) : element;
    if (typeof value !== 'string') return undefined;
    return fold ? value.toLowerCase() : value;
  };
}
