import type { AttrPath, AttributeFacts, FilterSemantics } from '@scimkit/core';

/** `schemas` (RFC 7643 §3) is filterable and sortable though no schema declares it. */
const SCHEMAS_FACTS: AttributeFacts = { fullPath: 'schemas', type: 'reference', caseExact: false, multiValued: true };

/** An attribute path resolved to where its value lives in the stored JSON. */
export interface ResolvedPath {
  /** JSON keys from the resource: `['name', 'givenName']`, `[urn, 'manager', 'value']`. */
  readonly keys: readonly string[];
  /** For each key, whether the value there may hold several values (any-match, RFC 7644 §3.4.2.2). */
  readonly multiValued: readonly boolean[];
  /** Facts of the attribute the path names (the sub-attribute when there is one). */
  readonly target: AttributeFacts;
  /** The top-level attribute's name in the schema's spelling, and whether it lives under an extension URN. */
  readonly attribute: string;
  readonly extension: boolean;
  /** Sub-attribute name in the schema's spelling, if the path names one. */
  readonly subAttribute?: string;
}

/**
 * Resolves `path` with the schema facts the core hands a store (`FilterSemantics.attribute`). The
 * keys come from the schema's spelling in `fullPath` (`urn:…:User:name.givenName`); the core schema's
 * URN is the one that holds `id`. Undefined when the resource type has no such attribute.
 */
export function resolvePath(path: AttrPath, semantics: FilterSemantics): ResolvedPath | undefined {
  const facts = semantics.attribute(path);
  if (facts === undefined) {
    const isSchemas = path.subAttr === undefined && path.attr.toLowerCase() === 'schemas' && (path.uri === undefined || path.uri.toLowerCase() === coreUrn(semantics)?.toLowerCase());
    return isSchemas ? { keys: ['schemas'], multiValued: [true], target: SCHEMAS_FACTS, attribute: 'schemas', extension: false } : undefined;
  }
  const core = coreUrn(semantics);
  const full = facts.fullPath;
  const cut = full.lastIndexOf(':');
  if (cut < 0 || core === undefined) return undefined;
  const urn = full.slice(0, cut);
  const [attribute = '', subAttribute] = full.slice(cut + 1).split('.');
  const extension = urn.toLowerCase() !== core.toLowerCase();
  const parent = subAttribute === undefined ? facts : semantics.attribute({ uri: urn, attr: attribute });
  if (parent === undefined) return undefined;
  const keys = [...(extension ? [urn] : []), attribute, ...(subAttribute === undefined ? [] : [subAttribute])];
  // A sub-attribute of a multi-valued attribute is read element by element; the facts cannot tell
  // whether it is itself multi-valued there (no standard schema has such a sub-attribute).
  const multiValued = [...(extension ? [false] : []), parent.multiValued, ...(subAttribute === undefined ? [] : [facts.multiValued && !parent.multiValued])];
  return { keys, multiValued, target: facts, attribute, extension, ...(subAttribute === undefined ? {} : { subAttribute }) };
}

/** The core schema's URN: the schema of the common attribute `id`. */
function coreUrn(semantics: FilterSemantics): string | undefined {
  const id = semantics.attribute({ attr: 'id' })?.fullPath;
  return id === undefined ? undefined : id.slice(0, id.lastIndexOf(':'));
}
