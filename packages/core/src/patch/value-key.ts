import type { AttributeDefinition } from '../schema/attribute-definition.js';
import type { ElementKeyCache } from './element-key-cache.js';
import { comparisonKey, findSubAttribute, getKey, matchesKey } from '../values/index.js';

/** A function giving an element's identity as a string, or undefined when it has none to index by. */
export type ValueKey = (element: unknown) => string | undefined;

/** How an attribute's elements are keyed: by their `value` sub-attribute (complex) or themselves, case-folded or not. */
export interface KeyKind {
  readonly complex: boolean;
  readonly fold: boolean;
}

/**
 * The key kind of a multi-valued attribute: its elements are keyed by the `value` sub-attribute of
 * a complex element (a member id, an email address), or a simple element itself, as its comparison
 * key (`comparisonKey`: NFC, lower-cased unless `caseExact`). Undefined when the attribute's values are not strings.
 */
export function keyKindOf(definition: AttributeDefinition): KeyKind | undefined {
  return identityOf(definition).kind;
}

/** The key of `element` under `kind` (see {@link valueKeyOf}). */
export function elementKey(kind: KeyKind, element: unknown): string | undefined {
  const value = kind.complex ? valueOf(element) : element;
  if (typeof value !== 'string') return undefined;
  return comparisonKey(value, !kind.fold);
}

/**
 * The identity multi-valued elements are matched by, as an index key (see {@link keyKindOf}). Two
 * elements can only match (see `entryMatcher`, `removalMatcher`) when their keys are equal, so
 * adding or removing k values among n costs O(n + k), not O(n·k). Undefined when the attribute's
 * values are not strings.
 */
export function valueKeyOf(definition: AttributeDefinition): ValueKey | undefined {
  return identityOf(definition).key;
}

/**
 * The key kind of a definition and its key function, derived on each call (one look for the `value`
 * sub-attribute: callers ask once per operation, not per element), so nothing is kept here.
 */
function identityOf(definition: AttributeDefinition): { readonly kind: KeyKind | undefined; readonly key: ValueKey | undefined } {
  const kind = kindOf(definition);
  return { kind, key: kind === undefined ? undefined : (element) => elementKey(kind, element) };
}

function kindOf(definition: AttributeDefinition): KeyKind | undefined {
  const identity = definition.type === 'complex' ? findSubAttribute(definition, 'value') : definition;
  if (identity === undefined || (identity.type !== 'string' && identity.type !== 'reference')) return undefined;
  return { complex: definition.type === 'complex', fold: !identity.caseExact };
}

/** Up to this many wanted keys are compared one by one; more are looked up in a set. */
const COMPARED_KEYS = 8;

/**
 * Calls `found(index, key)` for each element of `elements` whose key (see {@link valueKeyOf}) is one
 * of `keys` (keys as `valueKeyOf` gives them): for each key in element order, not across keys.
 * With `cache`, a large stored array patched again and again is looked up in its index (see
 * ElementKeyCache) instead of scanned. Otherwise one tight pass per key that allocates nothing per
 * element: the `value` is read directly (the schema's spelling, as stored; any other spelling is
 * looked up), and compared with each key folded in place (`matchesKey`), not made into a new string.
 * Does nothing when the attribute has no `valueKeyOf`.
 */
export function scanKeys(
  definition: AttributeDefinition,
  elements: readonly unknown[],
  keys: readonly string[],
  found: (index: number, key: string) => void,
  cache?: ElementKeyCache,
): void {
  const kind = keyKindOf(definition);
  if (kind === undefined || keys.length === 0) return;
  if (cache !== undefined && cache.find(elements, kind, keys, found)) return;
  const { complex, fold } = kind;
  if (keys.length > COMPARED_KEYS) {
    const wanted = new Set(keys);
    for (let i = 0; i < elements.length; i++) {
      const value = complex ? valueOf(elements[i]) : elements[i];
      if (typeof value !== 'string') continue;
      const key = comparisonKey(value, !fold);
      if (wanted.has(key)) found(i, key);
    }
    return;
  }
  for (let k = 0; k < keys.length; k++) {
    // One pass per key (a few at most), each a loop V8 keeps tight. Folded, a value whose first
    // character is ASCII and does not fold to the key's ASCII first is rejected without a call (a
    // non-ASCII first character of the key may be an ASCII one composed with a mark under NFC).
    const key = keys[k] as string;
    const first = key.charCodeAt(0);
    for (let i = 0; i < elements.length; i++) {
      const value = complex ? valueOf(elements[i]) : elements[i];
      if (typeof value !== 'string') continue;
      if (value === key) found(i, key);
      else if (fold) {
        const code = value.charCodeAt(0);
        if ((code === first || (code | 0x20) === first || code >= 0x80 || first >= 0x80) && matchesKey(value, key)) found(i, key);
      }
    }
  }
}

/** The `value` of a complex element: its own `value`, else the member spelled otherwise (`Value`). */
function valueOf(element: unknown): unknown {
  if (typeof element !== 'object' || element === null || Array.isArray(element)) return undefined;
  const direct = (element as { value?: unknown }).value;
  return direct !== undefined ? direct : getKey(element as Record<string, unknown>, 'value');
}
