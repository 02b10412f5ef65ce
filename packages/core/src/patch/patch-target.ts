import type { Filter } from '../filter/ast.js';
import type { AttributeDefinition, SchemaDefinition } from '../schema/attribute-definition.js';
import type { ResolvedAttribute } from '../schema/resource-model.js';
import type { ValueFilterPredicate } from '../filter/compile-value-filter.js';

/** What an operation's `path` designates, resolved against the resource type's schemas. */
export type PatchTarget =
  /** No path (or the core schema URN): the resource itself (RFC 7644 §3.5.2.1, §3.5.2.3). */
  | { readonly kind: 'resource' }
  /** An attribute no schema defines, under `unknownAttributes: 'ignore'`: the operation does nothing. */
  | { readonly kind: 'ignored' }
  /** The `schemas` attribute, derived from the data present. */
  | { readonly kind: 'schemas' }
  /** An extension's root, e.g. `urn:ietf:params:scim:schemas:extension:enterprise:2.0:User`. */
  | { readonly kind: 'extension'; readonly schema: SchemaDefinition; readonly required: boolean }
  /** An attribute or a sub-attribute of a single-valued complex attribute. */
  | { readonly kind: 'attribute'; readonly resolved: ResolvedAttribute }
  /** Elements of a multi-valued attribute: `emails[type eq "work"]`, `emails[…].value`, `emails.value` (all). */
  | {
      readonly kind: 'elements';
      readonly resolved: ResolvedAttribute;
      readonly matches: ValueFilterPredicate;
      readonly filter?: Filter;
      readonly subAttribute?: AttributeDefinition;
    };

/** The `elements` kind of target. */
export type ElementsTarget = Extract<PatchTarget, { kind: 'elements' }>;
