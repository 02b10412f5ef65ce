import { readTopLevel, scalarKey } from './unique-value.js';

/**
 * What one equality index covers: a top-level attribute (`userName`, `urn:…:employeeNumber`), or
 * the `value` sub-attribute of every element of a multi-valued complex attribute (`members`,
 * `emails`) when `element` is true.
 */
export interface IndexedAttribute {
  /** Top-level attribute in the schema's spelling, or `urn:…:attr` for an extension attribute. */
  readonly path: string;
  readonly element: boolean;
}

/**
 * One attribute's equality index: comparison key ({@link scalarKey}, case-folded) → the ids of the
 * resources holding a value with that key. Case-folded keys make it a superset for a caseExact
 * comparison too, so callers confirm what they find. A holder is kept as a bare id while it is the
 * only one holding the key once (nearly always), so the index costs one map entry per value.
 */
export class EqualityIndex {
  private readonly holders = new Map<string, string | Map<string, number>>();

  constructor(readonly attribute: IndexedAttribute) {}

  /** The ids holding `key`, each once. */
  ids(key: string): readonly string[] {
    const held = this.holders.get(key);
    return held === undefined ? [] : typeof held === 'string' ? [held] : [...held.keys()];
  }

  /** Indexes every value of `resource`. */
  addResource(id: string, resource: object): void {
    this.visit(resource, id, true);
  }

  removeResource(id: string, resource: object): void {
    this.visit(resource, id, false);
  }

  /** Indexes the `value` of each of `elements` (an element index only). */
  addElements(id: string, elements: readonly unknown[]): void {
    for (const element of elements) this.apply(elementKey(element), id, true);
  }

  removeElements(id: string, elements: readonly unknown[]): void {
    for (const element of elements) this.apply(elementKey(element), id, false);
  }

  /** Adds (or removes) each key `resource` holds under this index, once per value holding it. */
  private visit(resource: object, id: string, add: boolean): void {
    const value = readTopLevel(resource, this.attribute.path);
    if (this.attribute.element) {
      if (Array.isArray(value)) for (const element of value) this.apply(elementKey(element), id, add);
    } else if (Array.isArray(value)) {
      for (const item of value) this.apply(scalarKey(item, false), id, add);
    } else {
      this.apply(scalarKey(value, false), id, add);
    }
  }

  private apply(key: string | undefined, id: string, add: boolean): void {
    if (key === undefined) return;
    if (add) this.add(key, id);
    else this.remove(key, id);
  }

  private add(key: string, id: string): void {
    const held = this.holders.get(key);
    if (held === undefined) this.holders.set(key, id);
    else if (typeof held === 'string') this.holders.set(key, new Map([[held, 1]]).set(id, held === id ? 2 : 1));
    else held.set(id, (held.get(id) ?? 0) + 1);
  }

  private remove(key: string, id: string): void {
    const held = this.holders.get(key);
    if (held === undefined) return;
    if (typeof held === 'string') {
      if (held === id) this.holders.delete(key);
      return;
    }
    const count = held.get(id);
    if (count === undefined) return;
    if (count > 1) held.set(id, count - 1);
    else held.delete(id);
    if (held.size === 0) this.holders.delete(key);
    else if (held.size === 1) {
      const [only, left] = held.entries().next().value as [string, number];
      if (left === 1) this.holders.set(key, only);
    }
  }
}

/** The key of an element's `value` sub-attribute, if it has a scalar one. */
function elementKey(element: unknown): string | undefined {
  if (typeof element !== 'object' || element === null || !Object.prototype.hasOwnProperty.call(element, 'value')) return undefined;
  return scalarKey((element as { value?: unknown }).value, false);
}
